import { installGatedFetch } from "./gated-fetch.js";
import type * as PiAi from "@mariozechner/pi-ai";

export type PiAiModule = typeof PiAi;
/** pi-ai without its providers and typebox (pi-ai-light.ts). */
export type PiAiLight = typeof import("./pi-ai-light.js");
/** pi-ai's `streamSimple`, or one provider's own. */
export type SimpleStream = (model: PiAi.Model<PiAi.Api>, context: PiAi.Context, options?: PiAi.SimpleStreamOptions) => PiAi.AssistantMessageEventStream;

/**
 * pi-ai's provider module of each API, as its own lazy registration imports it
 * (providers/register-builtins.js): the same module, so loading it early loads it once. Amazon
 * Bedrock's is left out: pi-ai loads it as a Node-only module, outside the bundle.
 */
const PROVIDER_MODULES = new Map<string, () => Promise<unknown>>([
  ["anthropic-messages", () => import("@mariozechner/pi-ai/anthropic")],
  ["openai-completions", () => import("@mariozechner/pi-ai/openai-completions")],
  ["openai-responses", () => import("@mariozechner/pi-ai/openai-responses")],
  ["azure-openai-responses", () => import("@mariozechner/pi-ai/azure-openai-responses")],
  ["openai-codex-responses", () => import("@mariozechner/pi-ai/openai-codex-responses")],
  ["google-generative-ai", () => import("@mariozechner/pi-ai/google")],
  ["google-vertex", () => import("@mariozechner/pi-ai/google-vertex")],
  ["mistral-conversations", () => import("@mariozechner/pi-ai/mistral")],
]);

/**
 * The only runtime touchpoint with pi-ai. Importing it costs ~150 ms, so nothing imports it
 * statically: the first caller that needs the catalogue or a stream pays once, startup never does.
 * The catalogue and the faux models need only `light()`; a provider's call, or its warm-up, `load()`.
 */
export class PiAiLoader {
  private lightPending: Promise<PiAiLight> | undefined;
  private pending: Promise<PiAiModule> | undefined;
  private lightModule: PiAiLight | undefined;
  private openAICompletions: Promise<SimpleStream> | undefined;

  light(): Promise<PiAiLight> {
    this.lightPending ??= import("./pi-ai-light.js").then((module) => (this.lightModule = module));
    return this.lightPending;
  }

  load(): Promise<PiAiModule> {
    this.pending ??= import("@mariozechner/pi-ai").then((module) => {
      // Before any provider SDK creates a client: they look `fetch` up then. Not before the import:
      // reading globalThis.fetch loads fetch's implementation (undici, ~15 ms on Node 20) at once.
      installGatedFetch();
      return module;
    });
    return this.pending;
  }

  /**
   * Loads what a call to `api` runs (pi-ai, then the API's provider module and its SDK) before the
   * call reaches each; a provider warm-up starts it.
   */
  async prepare(api: string): Promise<void> {
    // The provider module once load() has installed the gated fetch: no SDK may find the ungated one.
    await Promise.all([this.simpleStream(api), this.load().then(() => PROVIDER_MODULES.get(api)?.())]);
  }

  /**
   * The stream function for a call to `api`: pi-ai's `streamSimple`, except for openai-completions
   * (every models.json provider, most local servers), whose provider module's own function is called:
   * pi-ai's lazy registration of a provider forwards each of its events through one more event stream
   * (a queue and an async iteration per streamed delta), the same events in the same order.
   */
  async simpleStream(api: PiAi.Api): Promise<SimpleStream> {
    const piAi = await this.load();
    if (api !== "openai-completions") return piAi.streamSimple;
    this.openAICompletions ??= import("@mariozechner/pi-ai/openai-completions").then(
      (provider) => provider.streamSimpleOpenAICompletions as SimpleStream,
      () => piAi.streamSimple,
    );
    return this.openAICompletions;
  }

  /** `light()`'s module once it has settled; lets synchronous paths use it after a resolve. */
  get lightLoaded(): PiAiLight | undefined {
    return this.lightModule;
  }
}
