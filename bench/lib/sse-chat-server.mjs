// A local OpenAI-compatible server for the bench: every POST is answered at once with a short streamed
// reply ("hello world"), as a model server on the same machine would: chat-completion chunks on
// /v1/chat/completions, Responses API events on /v1/responses (Codex speaks only that). It counts the
// requests, so a row can check that each prompt reached it.
import { createServer } from "node:http";

const chatChunk = (delta, finishReason = null) =>
  `data: ${JSON.stringify({ id: "bench", object: "chat.completion.chunk", created: 0, model: "m1", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;

function chatReply(response) {
  response.write(chatChunk({ role: "assistant", content: "hello" }));
  response.write(chatChunk({ content: " world" }));
  response.write(chatChunk({}, "stop"));
  response.end("data: [DONE]\n\n");
}

function responsesReply(response) {
  const event = (type, data) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const created = { id: "resp_bench", object: "response", created_at: 0, status: "in_progress", model: "m1", output: [] };
  const item = { id: "msg_bench", type: "message", role: "assistant", status: "in_progress", content: [] };
  const at = { item_id: item.id, output_index: 0, content_index: 0 };
  const text = { type: "output_text", text: "hello world", annotations: [] };
  const done = { ...item, status: "completed", content: [text] };
  event("response.created", { response: created });
  event("response.output_item.added", { output_index: 0, item });
  event("response.content_part.added", { ...at, part: { ...text, text: "" } });
  event("response.output_text.delta", { ...at, delta: "hello" });
  event("response.output_text.delta", { ...at, delta: " world" });
  event("response.output_text.done", { ...at, text: text.text });
  event("response.content_part.done", { ...at, part: text });
  event("response.output_item.done", { output_index: 0, item: done });
  const usage = { input_tokens: 5, output_tokens: 2, total_tokens: 7, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
  event("response.completed", { response: { ...created, status: "completed", output: [done], usage } });
  response.end();
}

export class SseChatServer {
  requests = 0;
  #server;

  static async start() {
    const server = new SseChatServer();
    server.#server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        server.requests++;
        response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        if (request.url.endsWith("/responses")) responsesReply(response);
        else chatReply(response);
      });
    });
    await new Promise((resolve) => server.#server.listen(0, "127.0.0.1", resolve));
    return server;
  }

  get baseUrl() {
    return `http://127.0.0.1:${this.#server.address().port}/v1`;
  }

  stop() {
    return new Promise((resolve) => this.#server.close(resolve));
  }
}
