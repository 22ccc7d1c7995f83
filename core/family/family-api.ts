/**
 * `zi/family`: everything a method family's files import from Zi, in one module (docs/method-families.md):
 * the decorator and the family type, the params helpers, the ports and their tokens, `RpcError`, the
 * typed result-schema helpers and the wire's types and limits. The built-in families import it too.
 */
// tsyringe refuses to load without the Reflect polyfill: importing this module first brings it in.
import "reflect-metadata";

export { inject } from "tsyringe";

// Declaring a method and a family.
export { RpcMethod } from "../kernel/rpc-method.decorator.js";
export type { RpcMethodOptions } from "../kernel/rpc-method-metadata.js";
export type { RequestContext, RpcHandler } from "../kernel/rpc-handler.js";
export type { HandlerClass, MethodFamily } from "../kernel/method-family.js";
export { lazy, LazyMethod, type AdmissionFlags } from "../kernel/lazy-method.js";
export { RpcError, type FieldProblem, type OperationErrorCode } from "../kernel/rpc-error.js";

// Params DTOs (class-validator's decorators come from class-validator itself).
export { DescribedRule, locatedBy, MaxBytes, NestedParams, Optional, type DescribedRuleOptions, type LocatedProblem, type RuleSchema } from "../kernel/params-decorators.js";

// Result schemas, typed: `handle()` is checked against them at compile time.
export {
  EMPTY_RESULT,
  anyValue,
  arrayOf,
  bool,
  closed,
  count,
  described,
  literal,
  nullable,
  num,
  oneOf,
  open,
  pageOf,
  ref,
  str,
  type JsonSchema,
  type Schema,
  type SchemaValue,
} from "../wire/json-schema.js";

// The ports a handler reaches the session through, each with its injection token.
export { SESSION, type SessionPort } from "../ports/session.port.js";
export { MODELS, type ModelPort } from "../ports/model.port.js";
export { THINKING, type ThinkingPort } from "../ports/thinking.port.js";
export { SESSIONS, type SessionsPort } from "../ports/sessions.port.js";
export { COMMANDS, type CommandDescriptor, type CommandFeedback, type CommandPort } from "../ports/commands.port.js";
export { EVENT_MODE } from "../kernel/kernel-ports.js";
export type { EventMode, EventModeName } from "../kernel/event-mode.js";

// The wire: its types, limits and the work plan's one step rule.
export type * from "../wire/session-types.js";
export type * from "../wire/budget-types.js";
export { SANDBOX_MODES, THINKING_LEVELS } from "../wire/session-types.js";
export { RPC_LIMITS, type RpcLimits } from "../wire/limits.js";
export type * from "../wire/session-tree-types.js";
export { SESSION_TREE_LIMITS } from "../wire/session-tree-types.js";
export { IMAGE_MIME_TYPES, imageBytes, imageDataProblem, type ImageMimeType, type PromptImage } from "../wire/prompt-image.js";
export { WORK_PLAN_LIMITS, WORK_PLAN_STEP_SCHEMA, workPlanStepsFault, workPlanStepsProblem } from "../wire/work-plan-step.js";
