import type * as PiAi from "@mariozechner/pi-ai";
import type { PiAiModule } from "./pi-ai-loader.js";

export interface FauxPacing {
  /** Characters per delta are 4 × tokenSize (pi-ai's faux token estimate). */
  tokenSize: number;
  /** Undefined streams as fast as the event loop allows. */
  tokensPerSecond?: number;
}

/**
 * pi-ai's faux provider fixes pacing (token size, tokens per second) per registration, while Zi
 * wants it per call (scripted steps carry their own `tokensPerSecond`, echo sizes deltas to the
 * reply). So one registration is kept per distinct pacing, each under pi-ai's random api id, and a
 * call borrows the matching one. The set stays small: echo sizes are powers of two.
 */
export class FauxProviderPool {
  private readonly registrations = new Map<string, PiAi.FauxProviderRegistration>();

  constructor(private readonly piAi: PiAiModule) {}

  stream(
    model: PiAi.Model<PiAi.Api>,
    context: PiAi.Context,
    options: PiAi.SimpleStreamOptions,
    respond: PiAi.FauxResponseFactory,
    pacing: FauxPacing,
  ): PiAi.AssistantMessageEventStream {
    const registration = this.registration(pacing);
    // The faux stream takes its response from the queue synchronously, so append + call is atomic.
    registration.appendResponses([respond]);
    return this.piAi.streamSimple({ ...model, api: registration.api } as PiAi.Model<PiAi.Api>, context, options);
  }

  dispose(): void {
    for (const registration of this.registrations.values()) registration.unregister();
    this.registrations.clear();
  }

  private registration(pacing: FauxPacing): PiAi.FauxProviderRegistration {
    const key = `${pacing.tokenSize}/${pacing.tokensPerSecond ?? 0}`;
    let registration = this.registrations.get(key);
    if (!registration) {
      registration = this.piAi.registerFauxProvider({
        provider: "faux",
        models: [{ id: "pool" }],
        tokensPerSecond: pacing.tokensPerSecond,
        tokenSize: { min: pacing.tokenSize, max: pacing.tokenSize },
      });
      this.registrations.set(key, registration);
    }
    return registration;
  }
}
