import type * as PiAi from "@mariozechner/pi-ai";
import type { PublicModel } from "../wire/session-types.js";
import type { FauxModels } from "./faux-models.js";
import type { UserProviderConfig } from "./model-config-types.js";
import type { PiAiLight } from "./pi-ai-loader.js";

export type ModelSource = "faux" | "user" | "builtin";

export interface CatalogEntry {
  source: ModelSource;
  /** Holds base URL, headers and prices: stays inside the runtime. */
  model: PiAi.Model<PiAi.Api>;
  descriptor: PublicModel;
}

/**
 * Every callable model, keyed provider → id: the faux models, then models.json providers, then
 * pi-ai's catalogue. A models.json provider named like a pi-ai provider replaces that provider's
 * catalogue entries entirely (e.g. `openai` behind a proxy).
 */
export class ModelCatalog {
  private readonly providers = new Map<string, Map<string, CatalogEntry>>();

  constructor(piAi: PiAiLight, faux: FauxModels, userProviders: readonly UserProviderConfig[]) {
    for (const model of faux.models) this.add("faux", model);
    for (const provider of userProviders) {
      for (const model of provider.models) this.add("user", this.userModel(provider, model));
    }
    for (const provider of piAi.getProviders()) {
      if (this.providers.has(provider)) continue;
      for (const model of piAi.getModels(provider)) this.add("builtin", model as PiAi.Model<PiAi.Api>);
    }
  }

  find(provider: string, id: string): CatalogEntry | undefined {
    return this.providers.get(provider)?.get(id);
  }

  /** Providers in catalogue order, each with its entries. */
  *byProvider(): IterableIterator<[provider: string, entries: CatalogEntry[]]> {
    for (const [provider, models] of this.providers) yield [provider, [...models.values()]];
  }

  private add(source: ModelSource, model: PiAi.Model<PiAi.Api>): void {
    let models = this.providers.get(model.provider);
    if (!models) this.providers.set(model.provider, (models = new Map()));
    models.set(model.id, { source, model, descriptor: ModelCatalog.describe(model) });
  }

  private userModel(provider: UserProviderConfig, model: UserProviderConfig["models"][number]): PiAi.Model<PiAi.Api> {
    const result: PiAi.Model<PiAi.Api> = {
      id: model.id,
      name: model.name,
      api: provider.api,
      provider: provider.name,
      baseUrl: provider.baseUrl,
      reasoning: model.reasoning,
      input: [...model.input],
      cost: { ...model.cost },
      contextWindow: model.contextWindow,
      maxTokens: model.maxTokens,
    };
    if (Object.keys(provider.headers).length > 0) result.headers = { ...provider.headers };
    if (provider.compat) (result as { compat?: unknown }).compat = structuredClone(provider.compat);
    return result;
  }

  /**
   * The public projection: exactly the seven fields the protocol allows. Written out, not through
   * publicModel's class-transformer projection: a catalogue is ~970 models, and plainToInstance costs
   * ~40-90 µs each (measured), where this copy is built once per model at load.
   */
  static describe(model: PiAi.Model<PiAi.Api>): PublicModel {
    return {
      provider: model.provider,
      id: model.id,
      name: model.name,
      reasoning: model.reasoning,
      input: [...model.input],
      contextWindow: model.contextWindow,
      maxTokens: model.maxTokens,
    };
  }
}
