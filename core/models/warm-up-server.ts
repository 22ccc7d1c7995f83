import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One SSE record: `event:` (when the API names its events) and `data:` lines. */
const record = (data: object, event?: string): string => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

/**
 * A short streamed reply ("ok", then the stop reason and the usage) in each gated API's own shape, so
 * the warm-up parses what a first real reply brings: the SDK's SSE decoder, pi-ai's event handling
 * (text block start, delta, end, usage), not only an empty stream.
 */
function reply(api: string): string {
  if (api === "anthropic-messages") {
    const usage = { input_tokens: 1, output_tokens: 1 };
    const message = { id: "msg_warm_up", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, stop_sequence: null, usage };
    return [
      record({ type: "message_start", message }, "message_start"),
      record({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start"),
      record({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ok" } }, "content_block_delta"),
      record({ type: "content_block_stop", index: 0 }, "content_block_stop"),
      record({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 1 } }, "message_delta"),
      record({ type: "message_stop" }, "message_stop"),
    ].join("");
  }
  if (api === "openai-responses") {
    const created = { id: "resp_warm_up", object: "response", created_at: 0, status: "in_progress", model: "m", output: [] };
    const item = { id: "msg_warm_up", type: "message", role: "assistant", status: "in_progress", content: [] };
    const at = { item_id: item.id, output_index: 0, content_index: 0 };
    const text = { type: "output_text", text: "ok", annotations: [] };
    const done = { ...item, status: "completed", content: [text] };
    const usage = { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
    const event = (type: string, data: object): string => record({ type, ...data }, type);
    return [
      event("response.created", { response: created }),
      event("response.output_item.added", { output_index: 0, item }),
      event("response.content_part.added", { ...at, part: { ...text, text: "" } }),
      event("response.output_text.delta", { ...at, delta: "ok" }),
      event("response.output_text.done", { ...at, text: text.text }),
      event("response.content_part.done", { ...at, part: text }),
      event("response.output_item.done", { output_index: 0, item: done }),
      event("response.completed", { response: { ...created, status: "completed", output: [done], usage } }),
    ].join("");
  }
  const chunk = (delta: object, finishReason: string | null, usage?: object): string =>
    record({ id: "warm-up", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finishReason }], ...(usage ? { usage } : {}) });
  return [
    chunk({ role: "assistant", content: "ok" }, null),
    chunk({}, "stop", { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }),
    "data: [DONE]\n\n",
  ].join("");
}

/**
 * The provider warm-up's counterpart (provider-warmer.ts): an HTTP server of Zi's own on 127.0.0.1,
 * listening only while one warm-up call runs, that reads the call's request like a provider and
 * answers it with a short event stream in the call's API. The warm-up thus runs the real call's
 * whole path, fetch's request and response included, and no provider sees anything.
 */
export class WarmUpServer {
  /** Requests answered so far. */
  requests = 0;
  /** `http://127.0.0.1:<port>`, once started. */
  origin = "";
  private readonly server = createServer((request, response) => {
    request.resume();
    request.once("end", () => {
      this.requests++;
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" }).end(this.body);
    });
  });
  private readonly body: string;

  private constructor(api: string) {
    this.body = reply(api);
  }

  static async start(api: string): Promise<WarmUpServer> {
    const server = new WarmUpServer(api);
    await new Promise<void>((resolve, reject) => server.server.once("error", reject).listen(0, "127.0.0.1", resolve));
    server.origin = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    return server;
  }

  /** `baseUrl` on this server: its path kept (`/v1`), so the SDK builds the same request paths. */
  baseUrlFor(baseUrl: string): string {
    let path = "";
    try {
      path = new URL(baseUrl).pathname.replace(/\/$/, "");
    } catch {
      // not a URL: the warm-up then uses the server's root
    }
    return `${this.origin}${path}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
