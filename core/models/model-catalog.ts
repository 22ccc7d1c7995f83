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

/** One provider of the catalogue; `entries()` makes a pi-ai provider's entries on its first call. */
export interface CatalogProvider {
  name: string;
  source: ModelSource;
  entries(): CatalogEntry[];
}

/**
 * Every callable model, keyed provider → id: the faux models, then models.json providers, then
 * pi-ai's catalogue. A models.json provider named like a pi-ai provider replaces that provider's
 * catalogue entries entirely (e.g. `openai` behind a proxy). A pi-ai provider's entries are made when
 * it is first looked up or listed: a first `model.select` makes only its own provider's, not ~970.
 */
export class ModelCatalog {
  private readonly providers = new Map<string, Map<string, CatalogEntry>>();
  /** pi-ai's providers that no models.json provider replaces, in pi-ai's order; their entries once made. */
  private readonly builtin = new Map<string, Map<string, CatalogEntry> | undefined>();

  constructor(
    private readonly piAi: PiAiLight,
    faux: FauxModels,
    userProviders: readonly UserProviderConfig[],
  ) {
    for (const model of faux.models) this.add(this.providers, "faux", model);
    for (const provider of userProviders) {
      for (const model of provider.models) this.add(this.providers, "user", this.userModel(provider, model));
    }
    for (const provider of piAi.getProviders()) {
      if (!this.providers.has(provider)) this.builtin.set(provider, undefined);
    }
  }

  find(provider: string, id: string): CatalogEntry | undefined {
    return (this.providers.get(provider) ?? this.builtinEntries(provider))?.get(id);
  }

  /**
   * Providers in catalogue order. A pi-ai provider's entries are made only when asked for, so a list of
   * the configured models makes none for the providers without credentials.
   */
  *byProvider(): IterableIterator<CatalogProvider> {
    for (const [name, models] of this.providers) {
      const entries = [...models.values()];
      yield { name, source: entries[0].source, entries: () => entries };
    }
    for (const name of this.builtin.keys()) yield { name, source: "builtin", entries: () => [...this.builtinEntries(name)!.values()] };
  }

  /** The entries of pi-ai's `provider`: pi-ai lists each model under its own provider (model-registry.spec.ts checks it). */
  private builtinEntries(provider: string): Map<string, CatalogEntry> | undefined {
    if (!this.builtin.has(provider)) return undefined;
    let models = this.builtin.get(provider);
    if (!models) {
      models = new Map();
      for (const model of this.piAi.getModels(provider as PiAi.KnownProvider)) models.set(model.id, ModelCatalog.entry("builtin", model as PiAi.Model<PiAi.Api>));
      this.builtin.set(provider, models);
    }
    return models;
  }

  private add(providers: Map<string, Map<string, CatalogEntry>>, source: ModelSource, model: PiAi.Model<PiAi.Api>): void {
    let models = providers.get(model.provider);
    if (!models) providers.set(model.provider, (models = new Map()));
    models.set(model.id, ModelCatalog.entry(source, model));
  }

  private static entry(source: ModelSource, model: PiAi.Model<PiAi.Api>): CatalogEntry {
    return { source, model, descriptor: ModelCatalog.describe(model) };
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
