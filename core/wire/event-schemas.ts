import { anyValue, arrayOf, bool, closed, count, literal, nullable, open, ref, str, type JsonSchema, type ObjectOf, type Schema, type SchemaValue } from "./json-schema.js";
import { PERMISSION_REQUEST_FIELDS, PERMISSION_REQUEST_OPTIONAL, TOOL_CALL_INFO } from "./wire-schemas.js";

type EventValue<T, P extends Record<string, JsonSchema>, O extends keyof P> = [keyof P] extends [never] ? { type: T } : { type: T } & ObjectOf<P, O>;

/** One event's closed payload: its `type`, then its own fields (`optional` ones may be absent). */
function event<const T extends string, P extends Record<string, JsonSchema> = Record<never, never>, O extends keyof P & string = never>(
  type: T,
  fields: P = {} as P,
  optional: readonly O[] = [],
): Schema<EventValue<T, P, O>> {
  return closed({ type: literal(type), ...fields }, optional) as JsonSchema as Schema<EventValue<T, P, O>>;
}
const queued = arrayOf(ref("QueuedInput"));
const compactionReason = literal("threshold", "overflow", "manual");

/**
 * Every session event Zi emits, by type: the payload of a `session_event` frame, and (derived from it)
 * the TypeScript union `SessionEvent` every producer and front end is checked against: one truth.
 * Messages are pi-ai's (`Message`) and journal entries are open envelopes (`JournalEntry`); every other
 * payload is closed. docs/events.md says the same in prose; the drift test checks every real event against these.
 */
const EVENTS = {
  agent_start: event("agent_start", { traceparent: str }, ["traceparent"]),
  turn_start: event("turn_start"),
  message_start: event("message_start", { message: ref("Message") }),
  message_update: event("message_update", {
    assistantMessageEvent: closed({ type: literal("text_delta", "thinking_delta", "toolcall_delta"), contentIndex: count, delta: str }),
  }),
  message_end: event("message_end", { message: ref("Message") }),
  tool_execution_start: event("tool_execution_start", { toolCallId: str, toolName: str, args: anyValue(), call: TOOL_CALL_INFO }),
  tool_execution_update: event("tool_execution_update", { toolCallId: str, toolName: str, partialResult: anyValue() }),
  tool_execution_end: event("tool_execution_end", { toolCallId: str, toolName: str, result: anyValue(), isError: bool }),
  turn_end: event("turn_end", { message: nullable(ref("Message")), toolResults: arrayOf(ref("Message")) }),
  agent_end: event(
    "agent_end",
    { reason: literal("completed", "interrupted", "failed", "budget_exceeded", "structured_output_invalid"), errorMessage: str, budget: ref("BudgetHit"), structured: anyValue() },
    ["errorMessage", "budget", "structured"],
  ),
  queue_update: event("queue_update", { steering: queued, followUp: queued }),
  activity_changed: event("activity_changed", { activity: ref("Activity") }),
  model_changed: event("model_changed", {
    model: ref("PublicModel"),
    supportedThinkingLevels: arrayOf(ref("ThinkingLevel"), { minItems: 1 }),
    contextUsage: ref("ContextUsage"),
  }),
  thinking_level_changed: event("thinking_level_changed", { thinkingLevel: ref("ThinkingLevel") }),
  compaction_start: event("compaction_start", { reason: compactionReason }),
  compaction_end: event("compaction_end", { reason: compactionReason, summary: str, aborted: literal(true), errorMessage: str }, ["summary", "aborted", "errorMessage"]),
  auto_retry_start: event("auto_retry_start", { attempt: count, maxAttempts: count, delayMs: count, errorMessage: str }),
  auto_retry_end: event("auto_retry_end", { success: bool, attempt: count, finalError: str }, ["finalError"]),
  entry_appended: event("entry_appended", { entry: ref("JournalEntry") }),
  leaf_changed: event("leaf_changed", { leafId: str, targetId: str, messageCount: count }),
  session_switched: event("session_switched", { reason: literal("new", "fork", "switch"), path: nullable(str), state: ref("SessionState") }),
  operation_outcome: event("operation_outcome", { outcome: ref("OperationOutcome") }),
  work_plan_changed: event("work_plan_changed", { workPlan: ref("WorkPlan") }),
  extension_error: event("extension_error", { extension: str, error: str }),
  mcp_server_changed: event(
    "mcp_server_changed",
    { server: str, state: literal("starting", "ready", "failed", "stopped"), tools: count, error: str, note: str },
    ["error", "note"],
  ),
  permission_requested: event("permission_requested", PERMISSION_REQUEST_FIELDS, PERMISSION_REQUEST_OPTIONAL),
  permission_resolved: event(
    "permission_resolved",
    {
      requestId: str,
      toolCallId: str,
      toolName: str,
      decision: literal("allow_once", "allow_always", "deny"),
      decidedBy: literal("client", "rule", "timeout", "interrupt", "disconnect"),
      message: str,
      delegation: ref("DelegationOrigin"),
    },
    ["message", "delegation"],
  ),
};

/** Every event type Zi emits. */
export type SessionEventType = keyof typeof EVENTS;
/** One session event: the union of what the schemas above describe, discriminated by `type`. */
export type SessionEvent = { [K in SessionEventType]: SchemaValue<(typeof EVENTS)[K]> }[SessionEventType];
/** The event of one type. */
export type SessionEventOf<K extends SessionEventType> = Extract<SessionEvent, { type: K }>;

/** Each entry's key is its event's `type` (a wrong key fails here, naming it). */
type MiskeyedEvent = { [K in SessionEventType]: SchemaValue<(typeof EVENTS)[K]> extends { type: K } ? never : K }[SessionEventType];
const eventsKeyedByType: [MiskeyedEvent] extends [never] ? true : MiskeyedEvent = true;
void eventsKeyedByType;

export const EVENT_SCHEMAS: ReadonlyMap<SessionEventType, JsonSchema> = new Map(Object.entries(EVENTS) as [SessionEventType, JsonSchema][]);

/**
 * An event whose frame would exceed the record bound, as it is sent instead (docs/protocol.md): the
 * event clipped to maxStandInBytes, so members may be cut or missing, marked with its full size.
 */
const STAND_IN: JsonSchema = {
  description: "A stand-in for an event too large for one record: clipped, `truncated: true`, its full JSON size in `encodedBytes`.",
  ...open({ type: { enum: [...EVENT_SCHEMAS.keys()] }, truncated: { const: true }, encodedBytes: count }),
};

/** The `event` of a `session_event` frame: exactly one of the described events, or a stand-in for one. */
export const SESSION_EVENT_SCHEMA: JsonSchema = { oneOf: [...EVENT_SCHEMAS.values(), STAND_IN] };

/** Shared definitions the event payloads refer to (merged into the description's `$defs`). */
export const EVENT_DEFS: { readonly [K in "Message" | "JournalEntry"]: JsonSchema } = {
  Message: {
    description: "A pi-ai message as it is: user, assistant (content blocks, usage, stopReason, …) or toolResult.",
    oneOf: [
      open({ role: { const: "user" }, content: {}, timestamp: count }),
      open({ role: { const: "assistant" }, content: { type: "array" }, stopReason: str, timestamp: count }),
      open({ role: { const: "toolResult" }, toolCallId: str, toolName: str, content: { type: "array" }, isError: bool, timestamp: count }),
    ],
  },
  JournalEntry: {
    description: "A journal entry as written: id, parentId and timestamp, a type, and the type's own fields.",
    ...open({
      id: str,
      parentId: { type: ["string", "null"] },
      timestamp: str,
      type: { enum: ["message", "model_change", "thinking_level_change", "custom", "custom_message", "work_plan", "operation_outcome", "subagent", "permission", "compaction", "branch", "file_checkpoint", "rewind"] },
    }),
  },
};
