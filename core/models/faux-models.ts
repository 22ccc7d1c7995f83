import type * as PiAi from "@mariozechner/pi-ai";
import type { FauxScript } from "./faux-script.js";
import { streamFauxReply } from "./faux-delta-stream.js";
import { FauxResponder } from "./faux-responder.js";
import type { FauxResponse } from "./faux-responder.js";
import type { PiAiLight } from "./pi-ai-loader.js";
import type { ReadGate } from "./read-gate.js";

export const FAUX_PROVIDER = "faux";
// Never registered with pi-ai: Zi streams faux replies itself (faux-delta-stream.ts).
const FAUX_API = "zi-faux";

/**
 * The offline models: `faux/echo` (non-reasoning; replies `Echo: <last user text>`) and, with a
 * script, `faux/scripted` (reasoning with off..high but not xhigh, so thinking clamping is testable
 * offline). Streamed like pi-ai's faux provider; no keys, no network.
 */
export class FauxModels {
  readonly models: PiAi.Model<PiAi.Api>[];
  private readonly responder: FauxResponder;

  constructor(
    private readonly piAi: PiAiLight,
    private readonly script: FauxScript | undefined,
  ) {
    this.responder = new FauxResponder(piAi);
    this.models = [this.model("echo", "Faux Echo", false)];
    if (script) this.models.push(this.model("scripted", "Faux Scripted", true));
  }

  /** `agent`: the profile of the delegated child calling, so a script step can answer that child only. */
  stream(model: PiAi.Model<PiAi.Api>, context: PiAi.Context, signal: AbortSignal, gate: ReadGate, agent?: string): PiAi.AssistantMessageEventStream {
    const step = model.id === "scripted" ? this.script?.next(agent) : undefined;
    const response = step ? this.responder.step(step, context) : this.responder.echo(context);
    return streamFauxReply(this.piAi, () => this.deliver(response, signal), context, model, response.pacing, signal, gate);
  }

  /** Waits `delayMs` before the first token; an abort ends the wait and the stream reports "aborted". */
  private async deliver(response: FauxResponse, signal: AbortSignal | undefined): Promise<PiAi.AssistantMessage> {
    if (response.delayMs > 0 && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, response.delayMs);
        signal?.addEventListener("abort", done, { once: true });
      });
    }
    return { ...response.message, timestamp: Date.now() };
  }

  private model(id: string, name: string, reasoning: boolean): PiAi.Model<PiAi.Api> {
    return {
      id,
      name,
      api: FAUX_API,
      provider: FAUX_PROVIDER,
      baseUrl: "http://localhost:0",
      reasoning,
      input: ["text"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      contextWindow: 128_000,
      maxTokens: 16_384,
    };
  }
}
