import { installGatedFetch } from "./gated-fetch.js";
import type * as PiAi from "@mariozechner/pi-ai";

export type PiAiModule = typeof PiAi;

/**
 * The only runtime touchpoint with pi-ai. Importing it costs ~150 ms, so nothing imports it
 * statically: the first caller that needs the catalogue or a stream pays once, startup never does.
 */
export class PiAiLoader {
  private pending: Promise<PiAiModule> | undefined;
  private module: PiAiModule | undefined;

  load(): Promise<PiAiModule> {
    this.pending ??= import("@mariozechner/pi-ai").then((module) => {
      // Before any provider SDK creates a client: they look `fetch` up then.
      installGatedFetch();
      return (this.module = module);
    });
    return this.pending;
  }

  /** The module once `load()` has settled; lets synchronous paths use it after a resolve. */
  get loaded(): PiAiModule | undefined {
    return this.module;
  }
}
