import { installGatedFetch } from "./gated-fetch.js";
import type * as PiAi from "@mariozechner/pi-ai";

export type PiAiModule = typeof PiAi;
/** pi-ai's `streamSimple`, or one provider's own. */
export type SimpleStream = (model: PiAi.Model<PiAi.Api>, context: PiAi.Context, options?: PiAi.SimpleStreamOptions) => PiAi.AssistantMessageEventStream;

/**
 * The only runtime touchpoint with pi-ai. Importing it costs ~150 ms, so nothing imports it
 * statically: the first caller that needs the catalogue or a stream pays once, startup never does.
 */
export class PiAiLoader {
  private pending: Promise<PiAiModule> | undefined;
  private module: PiAiModule | undefined;
  private openAICompletions: Promise<SimpleStream> | undefined;

  load(): Promise<PiAiModule> {
    this.pending ??= import("@mariozechner/pi-ai").then((module) => {
      // Before any provider SDK creates a client: they look `fetch` up then.
      installGatedFetch();
      return (this.module = module);
    });
    return this.pending;
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

  /** The module once `load()` has settled; lets synchronous paths use it after a resolve. */
  get loaded(): PiAiModule | undefined {
    return this.module;
  }
}
