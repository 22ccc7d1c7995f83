// A local OpenAI-compatible server for the bench: every POST to /v1/chat/completions is answered at
// once with a short streamed reply (SSE chat-completion chunks, then [DONE]), as a model server on
// the same machine would. It counts the requests, so a row can check that each prompt reached it.
import { createServer } from "node:http";

const chunk = (delta, finishReason = null) =>
  `data: ${JSON.stringify({ id: "bench", object: "chat.completion.chunk", created: 0, model: "m1", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;

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
        response.write(chunk({ role: "assistant", content: "hello" }));
        response.write(chunk({ content: " world" }));
        response.write(chunk({}, "stop"));
        response.end("data: [DONE]\n\n");
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
