/**
 * The wire shapes a client sees, as types only. The method map is derived from the method families
 * (zi-method-map.ts) and the shared shapes come from core/wire, all by `import type`, so the compiler
 * catches any drift, and nothing of the server is loaded at runtime.
 */
import type { FieldProblem, OperationErrorCode, ProtocolErrorCode } from "../core/kernel/rpc-error.js";
import type { RpcLimits } from "../core/wire/limits.js";
import type { EventModeName } from "../core/kernel/event-mode.js";
import type { AgentSessionEvent, AwaitIdleResult, SessionState } from "../core/wire/session-types.js";
import type { AwaitIdleParams } from "../methods/session/await-idle.params.js";
import type { PageParams } from "../methods/session/page.params.js";
import type { PromptParams } from "../methods/session/prompt.params.js";
import type { SelectModelParams } from "../methods/model/select-model.params.js";
import type { SelectThinkingParams } from "../methods/thinking/select-thinking.params.js";
import type { SetEventsParams } from "../methods/connection/set-events.params.js";
import type { InvokeCommandParams } from "../methods/command/invoke-command.params.js";
import type { CommandDescriptor, CommandFeedback, ExtensionOrigin } from "../core/ports/commands.port.js";
import type { ZiMethodMap } from "./zi-method-map.js";

export type * from "../core/wire/session-types.js";
export type * from "../core/wire/context-summary.js";
export type { FieldProblem, OperationErrorCode, ProtocolErrorCode, RpcLimits, EventModeName };
export type { AwaitIdleParams, PageParams, PromptParams, SelectModelParams, SelectThinkingParams, SetEventsParams, InvokeCommandParams };
export type { CommandDescriptor, CommandFeedback, ExtensionOrigin };

/** `await_idle` with a completionId: the variant `promptAndAwait` and completion watches return. */
export type CompletionObservation = Exclude<AwaitIdleResult, Record<string, never>>;

/** Every method: its params (undefined when it takes none) and its result. */
export type { ZiMethodMap };

export type ZiMethodName = keyof ZiMethodMap & string;
export type ParamsOf<M extends ZiMethodName> = ZiMethodMap[M]["params"];
export type ResultOf<M extends ZiMethodName> = ZiMethodMap[M]["result"];

interface FrameBase {
  version: 1;
  sequence: number;
}

export interface ReadyFrame extends FrameBase {
  type: "ready";
  state: SessionState;
  limits: RpcLimits;
}

export interface SuccessFrame extends FrameBase {
  type: "response";
  id: string;
  method: string;
  ok: true;
  result: unknown;
}

export interface FailureFrame extends FrameBase {
  type: "response";
  id: string;
  method: string;
  ok: false;
  error: { code: OperationErrorCode; message: string; applied: "no" | "unknown" };
}

export interface ProtocolErrorFrame extends FrameBase {
  type: "protocol_error";
  id: string | null;
  error: { code: ProtocolErrorCode; message: string; details?: FieldProblem[] | Record<string, unknown> };
  fatal: boolean;
}

export interface SessionEventFrame extends FrameBase {
  type: "session_event";
  event: AgentSessionEvent;
}

export type ServerFrame = ReadyFrame | SuccessFrame | FailureFrame | ProtocolErrorFrame | SessionEventFrame;
