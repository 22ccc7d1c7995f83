// A local OpenAI-compatible chat-completions endpoint for the pi-RPC rows: every request streams the
// same reply, `tokens` deltas of one 4-character token each, so pi and Zi read identical bytes.
import { createServer } from "node:http";

export class SseModelServer {
  requests = 0;

  constructor(tokens) {
    const chunk = (delta, finish) =>
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const body = [chunk({ role: "assistant", content: "" }, null)];
    for (let i = 0; i < tokens; i++) body.push(chunk({ content: "tok " }, null));
    body.push(chunk({}, "stop"), `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [], usage: { prompt_tokens: 10, completion_tokens: tokens, total_tokens: tokens + 10 } })}\n\n`, "data: [DONE]\n\n");
    this.body = body.join("");
    this.server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        this.requests++;
        response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        response.end(this.body);
      });
    });
  }

  async start() {
    await new Promise((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${this.server.address().port}/v1`;
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
