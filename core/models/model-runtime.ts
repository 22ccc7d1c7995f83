import type { ModelListOptions } from "../ports/model.port.js";
import type { Redactor } from "../config/redactor.js";
import type * as PiAi from "@mariozechner/pi-ai";
import type { ModelEventStream } from "./buffered-model-stream.js";
import type { CatalogModel, PublicModel, ThinkingLevel } from "../wire/session-types.js";

/** A model the session may call: the public descriptor plus what only the runtime may see. */
export interface ResolvedModel {
  readonly descriptor: PublicModel;
  readonly supportedThinkingLevels: ThinkingLevel[];
  /** pi-ai model object; never serialised (it holds base URLs, headers and prices). */
  readonly model: PiAi.Model<PiAi.Api>;
}

export interface ModelStreamOptions {
  signal: AbortSignal;
  thinkingLevel: ThinkingLevel;
  sessionId: string;
  /** The profile of a delegated child session making the call (undefined for the parent session). */
  agent?: string;
}

export type ProviderErrorKind = "retryable" | "context_overflow" | "fatal";

/**
 * The session's only way to reach LLM providers: the pi-ai catalogue, user providers from
 * `ZI_HOME/models.json`, the offline `faux` models, and credentials. Loads pi-ai lazily.
 */
export interface ModelRuntime {
  list(options?: ModelListOptions): Promise<CatalogModel[]>;
  /** Throws RpcError `not_found` for an unknown provider/id, `operation_failed` without credentials. */
  resolve(provider: string, id: string): Promise<ResolvedModel>;
  stream(model: ResolvedModel, context: PiAi.Context, options: ModelStreamOptions): Promise<ModelEventStream>;
  /** Classifies a final assistant message whose stopReason is "error". */
  classifyError(message: PiAi.AssistantMessage, model: ResolvedModel): ProviderErrorKind;
  clampThinking(model: ResolvedModel | undefined, level: ThinkingLevel): ThinkingLevel;
  /** The process's redactor: streamed deltas are held back by it so that joined deltas hold no key. */
  readonly redactor?: Redactor;
}
