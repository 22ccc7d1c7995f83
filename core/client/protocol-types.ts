/**
 * The wire shapes a client sees, as types only. Params come from the method DTOs and results from the
 * session types by `import type`, so the compiler catches any drift, and nothing of the server is
 * loaded at runtime.
 */
import type { FieldProblem, OperationErrorCode, ProtocolErrorCode } from "../kernel/rpc-error.js";
import type { RpcLimits } from "../kernel/rpc-limits.js";
import type { EventModeName } from "../kernel/event-mode.js";
import type {
  AgentSessionEvent,
  AwaitIdleResult,
  CatalogModel,
  MessagePage,
  OutcomePage,
  PromptResult,
  PublicModel,
  SessionState,
  ThinkingList,
  ThinkingSelection,
} from "../session/session-types.js";
import type { AwaitIdleParams } from "../../methods/session/await-idle.params.js";
import type { PageParams } from "../../methods/session/page.params.js";
import type { PromptParams } from "../../methods/session/prompt.params.js";
import type { SelectModelParams } from "../../methods/model/select-model.params.js";
import type { SelectThinkingParams } from "../../methods/thinking/select-thinking.params.js";
import type { SetEventsParams } from "../../methods/connection/set-events.params.js";
import type { InvokeCommandParams } from "../../methods/command/invoke-command.params.js";
import type { CommandDescriptor, CommandFeedback, ExtensionOrigin } from "../ports/commands.port.js";

export type * from "../session/session-types.js";
export type { FieldProblem, OperationErrorCode, ProtocolErrorCode, RpcLimits, EventModeName };
export type { AwaitIdleParams, PageParams, PromptParams, SelectModelParams, SelectThinkingParams, SetEventsParams, InvokeCommandParams };
export type { CommandDescriptor, CommandFeedback, ExtensionOrigin };

/** `await_idle` with a completionId: the variant `promptAndAwait` and completion watches return. */
export type CompletionObservation = Exclude<AwaitIdleResult, Record<string, never>>;

/** Every method: its params (undefined when it takes none) and its result. */
export interface ZiMethodMap {
  "session.get_state": { params: undefined; result: SessionState };
  "session.get_messages": { params: PageParams | undefined; result: MessagePage };
  "session.get_outcomes": { params: PageParams | undefined; result: OutcomePage };
  "session.prompt": { params: PromptParams; result: PromptResult };
  "session.interrupt": { params: undefined; result: Record<string, never> };
  "session.await_idle": { params: AwaitIdleParams | undefined; result: AwaitIdleResult };
  "connection.set_events": { params: SetEventsParams | undefined; result: { mode: EventModeName } };
  "command.list": { params: undefined; result: { commands: CommandDescriptor[] } };
  "command.invoke": { params: InvokeCommandParams; result: CommandFeedback };
  "model.list": { params: undefined; result: { models: CatalogModel[] } };
  "model.select": { params: SelectModelParams; result: { model: PublicModel } };
  "thinking.list": { params: undefined; result: ThinkingList };
  "thinking.select": { params: SelectThinkingParams; result: ThinkingSelection };
}

export type ZiMethodName = keyof ZiMethodMap;
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
