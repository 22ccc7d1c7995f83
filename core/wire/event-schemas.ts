import { bool, closed, count, nullable, open, ref, str, type JsonSchema } from "./json-schema.js";
const event = (type: string, fields: Record<string, JsonSchema> = {}, optional: readonly string[] = []): JsonSchema =>
  closed<Record<string, JsonSchema>, string>({ type: { const: type }, ...fields }, optional);
import { PERMISSION_REQUEST_FIELDS, PERMISSION_REQUEST_OPTIONAL, TOOL_CALL_INFO } from "./wire-schemas.js";
const queued: JsonSchema = { type: "array", items: ref("QueuedInput") };
const compactionReason: JsonSchema = { enum: ["threshold", "overflow", "manual"] };

/**
 * Every session event Zi emits, by type: the payload of a `session_event` frame. Messages are pi-ai's
 * (`Message`) and journal entries are open envelopes (`JournalEntry`); every other payload is closed.
 * docs/events.md says the same in prose; the drift test checks every real event against these.
 */
export const EVENT_SCHEMAS: ReadonlyMap<string, JsonSchema> = new Map<string, JsonSchema>([
  ["agent_start", event("agent_start")],
  ["turn_start", event("turn_start")],
  ["message_start", event("message_start", { message: ref("Message") })],
  [
    "message_update",
    event("message_update", {
      assistantMessageEvent: closed({ type: { enum: ["text_delta", "thinking_delta", "toolcall_delta"] }, contentIndex: count, delta: str }),
    }),
  ],
  ["message_end", event("message_end", { message: ref("Message") })],
  ["tool_execution_start", event("tool_execution_start", { toolCallId: str, toolName: str, args: {}, call: TOOL_CALL_INFO })],
  ["tool_execution_update", event("tool_execution_update", { toolCallId: str, toolName: str, partialResult: {} })],
  ["tool_execution_end", event("tool_execution_end", { toolCallId: str, toolName: str, result: {}, isError: bool })],
  ["turn_end", event("turn_end", { message: nullable(ref("Message")), toolResults: { type: "array", items: ref("Message") } })],
  ["agent_end", event("agent_end", { reason: { enum: ["completed", "interrupted", "failed"] }, errorMessage: str }, ["errorMessage"])],
  ["queue_update", event("queue_update", { steering: queued, followUp: queued })],
  ["activity_changed", event("activity_changed", { activity: ref("Activity") })],
  [
    "model_changed",
    event("model_changed", {
      model: ref("PublicModel"),
      supportedThinkingLevels: { type: "array", items: ref("ThinkingLevel"), minItems: 1 },
      contextUsage: ref("ContextUsage"),
    }),
  ],
  ["thinking_level_changed", event("thinking_level_changed", { thinkingLevel: ref("ThinkingLevel") })],
  ["compaction_start", event("compaction_start", { reason: compactionReason })],
  ["compaction_end", event("compaction_end", { reason: compactionReason, summary: str, aborted: { const: true }, errorMessage: str }, ["summary", "aborted", "errorMessage"])],
  ["auto_retry_start", event("auto_retry_start", { attempt: count, maxAttempts: count, delayMs: count, errorMessage: str })],
  ["auto_retry_end", event("auto_retry_end", { success: bool, attempt: count, finalError: str }, ["finalError"])],
  ["entry_appended", event("entry_appended", { entry: ref("JournalEntry") })],
  ["operation_outcome", event("operation_outcome", { outcome: ref("OperationOutcome") })],
  ["work_plan_changed", event("work_plan_changed", { workPlan: ref("WorkPlan") })],
  ["extension_error", event("extension_error", { extension: str, error: str })],
  [
    "mcp_server_changed",
    event(
      "mcp_server_changed",
      { server: str, state: { enum: ["starting", "ready", "failed", "stopped"] }, tools: count, error: str, note: str },
      ["error", "note"],
    ),
  ],
  ["permission_requested", event("permission_requested", PERMISSION_REQUEST_FIELDS, PERMISSION_REQUEST_OPTIONAL)],
  [
    "permission_resolved",
    event(
      "permission_resolved",
      {
        requestId: str,
        toolCallId: str,
        toolName: str,
        decision: { enum: ["allow_once", "allow_always", "deny"] },
        decidedBy: { enum: ["client", "rule", "timeout", "interrupt", "disconnect"] },
        message: str,
        delegation: ref("DelegationOrigin"),
      },
      ["message", "delegation"],
    ),
  ],
]);

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
      type: { enum: ["message", "model_change", "thinking_level_change", "custom", "custom_message", "work_plan", "operation_outcome", "subagent", "permission", "compaction"] },
    }),
  },
};
