import type * as PiAi from "@mariozechner/pi-ai";
import { RpcError } from "../../core/kernel/rpc-error.js";
import type { ModelRuntime, ModelStreamOptions, ProviderErrorKind, ResolvedModel } from "../../core/models/model-runtime.js";
import { THINKING_LEVELS } from "../../core/wire/session-types.js";
import type { CatalogModel, ThinkingLevel } from "../../core/wire/session-types.js";

type PiAiModule = typeof PiAi;

export interface FauxRuntimeOptions {
  /** Characters per streamed delta are 4 × tokenSize. */
  tokenSize?: number;
  tokensPerSecond?: number;
  models?: PiAi.FauxModelDefinition[];
}

const REASONING_LEVELS: ThinkingLevel[] = ["off", "minimal", "low", "medium", "high"];

export const DEFAULT_FAUX_MODELS: PiAi.FauxModelDefinition[] = [
  { id: "plain", name: "Plain", reasoning: false, contextWindow: 128_000, maxTokens: 8192 },
  { id: "thinker", name: "Thinker", reasoning: true, contextWindow: 200_000, maxTokens: 16_384 },
  { id: "locked", name: "Locked", reasoning: false, contextWindow: 1000, maxTokens: 100 },
];

/**
 * A ModelRuntime on pi-ai's faux provider, with scripted replies. Errors are classified by their
 * text: "overloaded" is retryable, "context length" is an overflow, anything else is fatal. The
 * model `faux/locked` has no credentials.
 */
export class FauxRuntime implements ModelRuntime {
  readonly contexts: PiAi.Context[] = [];
  readonly options: ModelStreamOptions[] = [];

  private constructor(
    readonly piAi: PiAiModule,
    private readonly registration: PiAi.FauxProviderRegistration,
  ) {}

  static async create(options: FauxRuntimeOptions = {}): Promise<FauxRuntime> {
    const piAi = await import("@mariozechner/pi-ai");
    const size = options.tokenSize ?? 1;
    const registration = piAi.registerFauxProvider({
      provider: "faux",
      models: options.models ?? DEFAULT_FAUX_MODELS,
      tokenSize: { min: size, max: size },
      tokensPerSecond: options.tokensPerSecond,
    });
    return new FauxRuntime(piAi, registration);
  }

  /** Queues replies, one per model call. */
  respond(...steps: PiAi.FauxResponseStep[]): void {
    this.registration.appendResponses(steps);
  }

  text(text: string): PiAi.AssistantMessage {
    return this.piAi.fauxAssistantMessage(text);
  }

  toolCall(name: string, args: Record<string, unknown>, id?: string): PiAi.AssistantMessage {
    return this.piAi.fauxAssistantMessage([this.piAi.fauxToolCall(name, args, id ? { id } : {})], { stopReason: "toolUse" });
  }

  error(errorMessage: string): PiAi.AssistantMessage {
    return this.piAi.fauxAssistantMessage([], { stopReason: "error", errorMessage });
  }

  get pendingResponses(): number {
    return this.registration.getPendingResponseCount();
  }

  get callCount(): number {
    return this.registration.state.callCount;
  }

  dispose(): void {
    this.registration.unregister();
  }

  async list(): Promise<CatalogModel[]> {
    return this.registration.models.map((model) => ({ ...FauxRuntime.descriptor(model), configured: model.id !== "locked" }));
  }

  async resolve(provider: string, id: string): Promise<ResolvedModel> {
    const model = provider === "faux" ? this.registration.getModel(id) : undefined;
    if (!model) throw new RpcError("not_found", `unknown model ${provider}/${id}`);
    if (model.id === "locked") throw new RpcError("operation_failed", `no credentials for ${provider}/${id}`);
    return {
      descriptor: FauxRuntime.descriptor(model),
      supportedThinkingLevels: model.reasoning ? [...REASONING_LEVELS] : ["off"],
      model,
    };
  }

  async stream(model: ResolvedModel, context: PiAi.Context, options: ModelStreamOptions): Promise<PiAi.AssistantMessageEventStream> {
    this.contexts.push(structuredClone(context));
    this.options.push(options);
    const reasoning = options.thinkingLevel === "off" ? undefined : options.thinkingLevel;
    return this.piAi.streamSimple(model.model, context, { signal: options.signal, reasoning, sessionId: options.sessionId });
  }

  classifyError(message: PiAi.AssistantMessage): ProviderErrorKind {
    const text = message.errorMessage ?? "";
    if (/overloaded/i.test(text)) return "retryable";
    if (/context length/i.test(text)) return "context_overflow";
    return "fatal";
  }

  clampThinking(model: ResolvedModel | undefined, level: ThinkingLevel): ThinkingLevel {
    const supported = model?.supportedThinkingLevels ?? ["off"];
    if (supported.includes(level)) return level;
    const wanted = THINKING_LEVELS.indexOf(level);
    let best: ThinkingLevel = "off";
    for (const candidate of supported) {
      if (Math.abs(THINKING_LEVELS.indexOf(candidate) - wanted) < Math.abs(THINKING_LEVELS.indexOf(best) - wanted)) best = candidate;
    }
    return best;
  }

  private static descriptor(model: PiAi.Model<string>) {
    const { provider, id, name, reasoning, input, contextWindow, maxTokens } = model;
    return { provider, id, name, reasoning, input: [...input], contextWindow, maxTokens };
  }
}
