import { RpcError } from "../kernel/rpc-error.js";
import type { CatalogModel, PublicModel, SessionState, ThinkingLevel } from "../wire/session-types.js";
import { THINKING_LEVELS } from "../wire/session-types.js";
import type { MethodCalls } from "./method-calls.js";

/** pi's `Model` as far as Zi publishes one: the public descriptor (no api, base URL, headers, prices). */
export type PiModel = PublicModel;

/**
 * Models the pi way on `model.list` / `model.select`: pi's "available" models are those with
 * credentials (`configured`), `cycle_model` walks them (or the `--models` scope), and `--model` takes a
 * pattern with an optional `:<thinking>` suffix.
 */
export class PiModels {
  constructor(
    private readonly methods: MethodCalls,
    private readonly scope: readonly string[] | undefined,
  ) {}

  static project(model: PublicModel): PiModel {
    return { id: model.id, name: model.name, provider: model.provider, reasoning: model.reasoning, input: model.input, contextWindow: model.contextWindow, maxTokens: model.maxTokens };
  }

  async available(): Promise<PiModel[]> {
    const { models } = await this.methods.call<{ models: CatalogModel[] }>("model.list");
    return models.filter((model) => model.configured).map(PiModels.project);
  }

  async select(provider: string, id: string): Promise<PiModel> {
    try {
      const { model } = await this.methods.call<{ model: PublicModel }>("model.select", { provider, id });
      return PiModels.project(model);
    } catch (error) {
      if (error instanceof RpcError && error.code === "not_found") throw new RpcError("not_found", `Model not found: ${provider}/${id}`);
      throw error;
    }
  }

  /** The next model after the selected one; null (as pi) when there is nothing else to go to. */
  async cycle(): Promise<{ model: PiModel; thinkingLevel: ThinkingLevel; isScoped: boolean } | null> {
    const all = await this.available();
    const isScoped = this.scope !== undefined && this.scope.length > 0;
    const ring = isScoped ? all.filter((model) => this.scope!.some((pattern) => matches(model, pattern.split(":")[0]!))) : all;
    if (ring.length <= 1) return null;
    const state = await this.methods.call<SessionState>("session.get_state");
    const current = state.model.type === "selected" ? ring.findIndex((m) => m.provider === (state.model as PublicModel).provider && m.id === (state.model as PublicModel).id) : -1;
    const next = ring[(current + 1) % ring.length]!;
    const model = await this.select(next.provider, next.id);
    const after = await this.methods.call<SessionState>("session.get_state");
    return { model, thinkingLevel: after.thinkingLevel, isScoped };
  }

  /** `--provider P --model ID` or `--model P/ID` naming a model exactly: selected (true), else false. */
  async trySelect(provider: string | undefined, pattern: string): Promise<boolean> {
    const slash = pattern.indexOf("/");
    const [p, id] = provider !== undefined ? [provider, pattern] : slash > 0 ? [pattern.slice(0, slash), pattern.slice(slash + 1)] : [undefined, undefined];
    if (p === undefined || id === undefined || id.includes(":")) return false;
    try {
      await this.methods.call("model.select", { provider: p, id });
      return true;
    } catch (error) {
      if (error instanceof RpcError && error.code === "not_found") return false;
      throw error;
    }
  }

  /**
   * pi's `--provider` / `--model PATTERN[:thinking]`: `provider/id`, an id, or a unique part of an id or
   * name, providers matched without case. Throws pi's wording when nothing (or more than one) matches.
   */
  async resolve(providerFlag: string | undefined, pattern: string): Promise<{ model: PublicModel; thinking: ThinkingLevel | undefined }> {
    const { models } = await this.methods.call<{ models: CatalogModel[] }>("model.list");
    let thinking: ThinkingLevel | undefined;
    const colon = pattern.lastIndexOf(":");
    if (colon > 0 && (THINKING_LEVELS as readonly string[]).includes(pattern.slice(colon + 1))) {
      thinking = pattern.slice(colon + 1) as ThinkingLevel;
      pattern = pattern.slice(0, colon);
    }
    let provider = providerFlag === undefined ? undefined : models.find((m) => m.provider.toLowerCase() === providerFlag.toLowerCase())?.provider;
    if (providerFlag !== undefined && provider === undefined) throw new RpcError("not_found", `Unknown provider "${providerFlag}". Use --list-models to see available providers/models.`);
    const slash = pattern.indexOf("/");
    if (provider === undefined && slash > 0) {
      const prefix = models.find((m) => m.provider.toLowerCase() === pattern.slice(0, slash).toLowerCase())?.provider;
      if (prefix !== undefined) {
        provider = prefix;
        pattern = pattern.slice(slash + 1);
      }
    } else if (provider !== undefined && pattern.toLowerCase().startsWith(`${provider.toLowerCase()}/`)) {
      pattern = pattern.slice(provider.length + 1);
    }
    const candidates = provider === undefined ? models : models.filter((m) => m.provider === provider);
    const lower = pattern.toLowerCase();
    const exact = candidates.filter((m) => m.id.toLowerCase() === lower);
    const partial = candidates.filter((m) => matches(m, pattern));
    const found = exact.length > 0 ? exact : partial;
    if (found.length === 0) throw new RpcError("not_found", `Model "${pattern}" not found. Use --list-models to see available models.`);
    return { model: found.find((m) => m.configured) ?? found[0]!, thinking };
  }
}

function matches(model: PublicModel, pattern: string): boolean {
  const lower = pattern.toLowerCase();
  return model.id.toLowerCase().includes(lower) || model.name.toLowerCase().includes(lower) || `${model.provider}/${model.id}`.toLowerCase() === lower;
}
