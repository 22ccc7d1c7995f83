import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the server answers to one chat-completions request, in queue order. */
export type ScriptedReply =
  | { type: "text"; chunks: string[] }
  | { type: "tool_call"; name: string; arguments: Record<string, unknown>; id?: string; argumentChunks?: number }
  | { type: "http_error"; status: number; message: string }
  /** HTTP 200, then an SSE `error` event mid-stream (OpenAI's shape), after the given text chunks. */
  | { type: "stream_error"; chunks: string[]; errorType: string; message: string }
  /**
   * A stream whose data line is not JSON and echoes the request's Authorization header, as a broken
   * proxy might: the OpenAI SDK prints such a line with its own console.error.
   */
  | { type: "malformed_sse" }
  /** Sends these text chunks, then destroys the socket without finishing the stream. */
  | { type: "disconnect"; chunks: string[] }
  /**
   * `text` cut into deltas of `deltaChars`, as compact records written only as fast as the client
   * reads them (the server waits for 'drain'), so `streamedBytes` shows how far Zi has read.
   */
  | { type: "paced_text"; text: string; deltaChars: number };

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
}

/**
 * A local OpenAI-compatible endpoint (127.0.0.1, random port) for driving real provider code
 * offline: streams `chat.completion.chunk` SSE records and `data: [DONE]`, and records every request.
 * Each request consumes one scripted reply; with none left it answers 418, which no test expects.
 */
export class OpenAICompatibleServer {
  readonly requests: RecordedRequest[] = [];
  private readonly replies: ScriptedReply[] = [];
  private readonly server: Server = createServer((request, response) => void this.handle(request, response));
  private sequence = 0;
  /** Bytes of `paced_text` bodies handed to the socket so far. */
  streamedBytes = 0;

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this.baseUrl;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  enqueue(...replies: ScriptedReply[]): void {
    this.replies.push(...replies);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await this.readBody(request);
    let body: Record<string, unknown> | undefined;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    this.requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body });

    const reply = this.replies.shift();
    if (!reply) return this.sendError(response, 418, "no scripted reply left");
    const model = typeof body?.model === "string" ? body.model : "unknown";
    switch (reply.type) {
      case "http_error":
        return this.sendError(response, reply.status, reply.message);
      case "text":
        this.startStream(response);
        for (const chunk of reply.chunks) this.send(response, model, { content: chunk });
        return this.finish(response, model, "stop");
      case "tool_call": {
        this.startStream(response);
        const id = reply.id ?? `call_${++this.sequence}`;
        this.send(response, model, { tool_calls: [{ index: 0, id, type: "function", function: { name: reply.name, arguments: "" } }] });
        const args = JSON.stringify(reply.arguments);
        const pieces = Math.max(1, reply.argumentChunks ?? 3);
        const size = Math.ceil(args.length / pieces);
        for (let offset = 0; offset < args.length; offset += size) {
          this.send(response, model, { tool_calls: [{ index: 0, function: { arguments: args.slice(offset, offset + size) } }] });
        }
        return this.finish(response, model, "tool_calls");
      }
      case "stream_error":
        this.startStream(response);
        for (const chunk of reply.chunks) this.send(response, model, { content: chunk });
        response.end(`data: ${JSON.stringify({ error: { message: reply.message, type: reply.errorType, param: null, code: null } })}\n\n`);
        return;
      case "malformed_sse":
        this.startStream(response);
        response.end(`data: {"broken": Authorization: ${request.headers.authorization ?? ""}\n\n`);
        return;
      case "paced_text":
        this.startStream(response);
        for (let offset = 0; offset < reply.text.length; offset += reply.deltaChars) {
          const record = `data: {"choices":[{"index":0,"delta":{"content":${JSON.stringify(reply.text.slice(offset, offset + reply.deltaChars))}}}]}\n\n`;
          this.streamedBytes += record.length;
          if (!response.write(record)) await new Promise((resolve) => response.once("drain", resolve));
          if (response.destroyed) return;
        }
        return this.finish(response, model, "stop");
      case "disconnect":
        this.startStream(response);
        for (const chunk of reply.chunks) this.send(response, model, { content: chunk });
        // Let the chunks leave before the connection drops mid-stream.
        await new Promise((resolve) => setTimeout(resolve, 20));
        response.socket?.destroy();
        return;
    }
  }

  private startStream(response: ServerResponse): void {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  }

  private send(response: ServerResponse, model: string, delta: Record<string, unknown>, finishReason: string | null = null): void {
    const chunk = {
      id: "chatcmpl-test",
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    };
    response.write(`data: ${JSON.stringify(chunk)}\n\n`);
  }

  private finish(response: ServerResponse, model: string, finishReason: string): void {
    this.send(response, model, {}, finishReason);
    const usage = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };
    response.write(`data: ${JSON.stringify({ id: "chatcmpl-test", object: "chat.completion.chunk", created: 0, model, choices: [], usage })}\n\n`);
    response.end("data: [DONE]\n\n");
  }

  private sendError(response: ServerResponse, status: number, message: string): void {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message, type: status === 429 ? "rate_limit_error" : "api_error", code: status } }));
  }

  private readBody(request: IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      request.on("error", reject);
    });
  }
}
