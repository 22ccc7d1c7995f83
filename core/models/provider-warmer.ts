import type * as PiAi from "@mariozechner/pi-ai";
import type { PiAiModule } from "./pi-ai-loader.js";

/** Thrown from `onPayload`, which every pi-ai provider awaits before it sends anything. */
const STOP_BEFORE_SENDING = new Error("zi: provider warm-up (never sent)");

/**
 * Loads a provider's code path before its first real call: a model's first prompt paid for pi-ai's
 * provider module and its SDK (the `openai` package is ~115 files, ~40 ms to load) and for compiling
 * Node's fetch (~35 ms). Once a model is resolved, a call is started whose `onPayload` throws, so the
 * SDK is loaded and its client built while nothing leaves the process; a `data:` fetch compiles fetch.
 * It runs after the current turn (the answer that resolved the model goes out first), once per API.
 */
export class ProviderWarmer {
  private readonly warmed = new Set<string>();
  private fetchWarmed = false;

  /**
   * Settles (never rejects) once the warm-up call has ended, with whether the provider got as far as
   * its payload (so its SDK is loaded); callers need not wait for it. False for an API already warmed.
   */
  warm(piAi: PiAiModule, model: PiAi.Model<PiAi.Api>): Promise<boolean> {
    if (this.warmed.has(model.api)) return Promise.resolve(false);
    this.warmed.add(model.api);
    return new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const fetchWarm = this.fetchWarmed ? undefined : fetch("data:,").then((response) => response.arrayBuffer());
      this.fetchWarmed = true;
      try {
        const call = piAi.streamSimple(model, { messages: [] }, { apiKey: "zi-warm-up", maxRetries: 0, onPayload: () => Promise.reject(STOP_BEFORE_SENDING) });
        const [ended] = await Promise.all([call.result(), fetchWarm]);
        return ended.errorMessage === STOP_BEFORE_SENDING.message;
      } catch {
        return false; // a provider that fails before its payload is built warms nothing more; the real call reports
      }
    });
  }
}
