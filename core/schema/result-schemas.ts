import type { RpcErrorCode } from "../kernel/rpc-error.js";
import { THINKING_LEVELS } from "../session/session-types.js";
import type { JsonSchema } from "./json-schema-types.js";

/**
 * The hand-written half of the protocol description: result shapes and per-method error codes. Params
 * are derived from the DTOs (DtoSchemaBuilder); results are plain TypeScript types
 * (core/session/session-types.ts), which leave no runtime metadata, so they are written here and kept
 * honest by test/schema/, which checks real results from the built zi against them.
 */

const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });
const str: JsonSchema = { type: "string" };
const bool: JsonSchema = { type: "boolean" };
const count: JsonSchema = { type: "integer", minimum: 0 };

/** A closed object: every listed property, `optional` ones may be absent, nothing else. */
function closed(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return { type: "object", properties, required: Object.keys(properties).filter((key) => !optional.includes(key)), additionalProperties: false };
}

const EMPTY = closed({});
const PUBLIC_MODEL_FIELDS: Record<string, JsonSchema> = {
  provider: str,
  id: str,
  name: str,
  reasoning: bool,
  input: { type: "array", items: { enum: ["text", "image"] } },
  contextWindow: count,
  maxTokens: count,
};
const OUTCOME_FIELDS: Record<string, JsonSchema> = {
  id: str,
  parentId: { type: ["string", "null"] },
  timestamp: str,
  operationId: str,
  capability: str,
  operation: str,
  result: str,
  durationMs: { type: "number", minimum: 0 },
  evidence: { description: "Producer-owned, at most 8 KiB encoded." },
};
const pageOf = (key: string, item: JsonSchema, max: number): JsonSchema =>
  closed({ start: count, total: count, nextStart: { type: ["integer", "null"], minimum: 0 }, [key]: { type: "array", items: item, maxItems: max } });

export const RESULT_DEFS: Record<string, JsonSchema> = {
  ThinkingLevel: { enum: [...THINKING_LEVELS] },
  Delivery: { enum: ["direct", "steer", "follow_up", "continue"] },
  PublicModel: { description: "The public model projection: nothing else about a model crosses RPC.", ...closed(PUBLIC_MODEL_FIELDS) },
  CatalogModel: closed({ ...PUBLIC_MODEL_FIELDS, configured: bool }),
  ModelState: { oneOf: [closed({ type: { const: "unselected" } }), closed({ type: { const: "selected" }, ...PUBLIC_MODEL_FIELDS })] },
  Activity: {
    oneOf: [
      closed({ type: { enum: ["idle", "running", "aborting", "compacting", "reloading", "disposed"] } }),
      closed({ type: { const: "failed" }, errorMessage: str }),
    ],
  },
  QueuedInput: closed({ text: str, completionId: str, textTruncated: { const: true }, textBytes: count }, ["completionId", "textTruncated", "textBytes"]),
  WorkPlan: closed({
    revision: count,
    steps: { type: "array", items: closed({ id: str, title: str, status: { enum: ["pending", "in_progress", "completed", "cancelled"] } }, ["id"]) },
  }),
  SessionState: closed({
    sessionId: str,
    activity: ref("Activity"),
    model: ref("ModelState"),
    thinkingLevel: ref("ThinkingLevel"),
    supportedThinkingLevels: { type: "array", items: ref("ThinkingLevel"), minItems: 1 },
    steeringMode: { enum: ["one-at-a-time", "all"] },
    followUpMode: { enum: ["one-at-a-time", "all"] },
    queuedInputs: closed({ steering: { type: "array", items: ref("QueuedInput") }, followUp: { type: "array", items: ref("QueuedInput") } }),
    workPlan: ref("WorkPlan"),
    messageCount: count,
    compaction: { oneOf: [closed({ type: { const: "idle" } }), closed({ type: { const: "compacting" }, reason: { enum: ["threshold", "overflow", "manual"] } })] },
    retry: {
      oneOf: [
        closed({ type: { const: "idle" } }),
        closed({ type: { const: "waiting" }, attempt: count, maxAttempts: count, delayMs: count, errorMessage: str }),
      ],
    },
    contextUsage: {
      oneOf: [
        closed({ type: { const: "unavailable" }, reason: { enum: ["no_model", "no_usage"] } }),
        closed({ type: { const: "available" }, tokens: count, contextWindow: count, percent: { type: "number", minimum: 0 } }),
      ],
    },
  }),
  CompletionEvidence: {
    description: "The latest assistant message_end of the cycle: text clipped to 50 KiB, error text to 8 KiB.",
    ...closed({ text: str, textTruncated: bool, stopReason: str, errorMessage: str, errorTruncated: bool }, ["errorMessage", "errorTruncated"]),
  },
  MessageItem: {
    description:
      "A pi-ai message (user, assistant, toolResult) or a displayed custom message, with its transcript index. An item whose JSON exceeds maxMessagePageBytes is a stand-in: clipped to maxStandInBytes, with `truncated: true` and its full size in `encodedBytes`.",
    type: "object",
    properties: { index: count, role: str, truncated: { const: true }, encodedBytes: count },
    required: ["index", "role"],
  },
  OperationOutcome: {
    description: "The open outcome envelope shared by operation_outcome events and session.get_outcomes items.",
    ...closed(OUTCOME_FIELDS, ["evidence"]),
  },
  OutcomeItem: closed({ index: count, ...OUTCOME_FIELDS }, ["evidence"]),
  CommandDescriptor: closed({ name: str, description: str, source: { enum: ["builtin", "global", "project", "cli"] } }, ["description"]),
};

export interface MethodContract {
  summary: string;
  result: JsonSchema;
  /** Operation codes this method answers besides `capacity` and `operation_failed`, which any may. */
  errors?: RpcErrorCode[];
}

export const METHOD_CONTRACTS: ReadonlyMap<string, MethodContract> = new Map<string, MethodContract>([
  ["session.get_state", { summary: "The current session snapshot (the same object `ready.state` carries).", result: ref("SessionState") }],
  [
    "session.get_messages",
    { summary: "An indexed transcript page; `start` defaults to 0, `limit` to 100. Stops early before 8 MiB of encoded messages.", result: pageOf("messages", ref("MessageItem"), 100) },
  ],
  ["session.get_outcomes", { summary: "An indexed page of operation outcomes in journal order; `start` defaults to 0, `limit` to 100.", result: pageOf("outcomes", ref("OutcomeItem"), 100) }],
  [
    "session.prompt",
    {
      summary: "Admits input (not its completion). `direct` while running is operation_failed.",
      result: closed({ delivery: ref("Delivery"), admission: { enum: ["started", "queued", "joined"] }, completionRevision: count }, ["completionRevision"]),
    },
  ],
  ["session.interrupt", { summary: "Aborts the active work; answers `{}` once the interruption settled. May use the reserved slot.", result: EMPTY }],
  [
    "session.await_idle",
    {
      summary: "Answers once the session is idle; with `completionId`, the completion evidence of that watch.",
      result: {
        oneOf: [
          EMPTY,
          closed({ completionId: str, completionRevision: count, messageCount: count, completion: { anyOf: [ref("CompletionEvidence"), { type: "null" }] } }),
        ],
      },
    },
  ],
  // The example work-plan plugin's family (plugins/work-plan/), served by every built zi.
  ["plan.get", { summary: "The current work plan (plugin family).", result: closed({ workPlan: ref("WorkPlan") }) }],
  ["plan.replace", { summary: "Replaces the work plan whole; its revision grows by one (plugin family).", result: closed({ workPlan: ref("WorkPlan") }) }],
  ["connection.set_events", { summary: "Sets the connection's event mode (default `all`); `none` suppresses only session_event frames.", result: closed({ mode: { enum: ["all", "none"] } }) }],
  ["command.list", { summary: "The admitted extension commands.", result: closed({ commands: { type: "array", items: ref("CommandDescriptor") } }) }],
  [
    "command.invoke",
    {
      summary: "Invokes an extension command by exact name (idle only); optional feedback outside the journal.",
      result: closed({ message: str }, ["message"]),
      errors: ["not_found"],
    },
  ],
  ["model.list", { summary: "Model descriptors with whether credentials are configured.", result: closed({ models: { type: "array", items: ref("CatalogModel") } }) }],
  [
    "model.select",
    { summary: "Selects a model: unknown provider/id is not_found, missing credentials operation_failed.", result: closed({ model: ref("PublicModel") }), errors: ["not_found"] },
  ],
  ["thinking.list", { summary: "The levels the selected model supports, and the current one.", result: closed({ levels: { type: "array", items: ref("ThinkingLevel"), minItems: 1 }, current: ref("ThinkingLevel") }) }],
  [
    "thinking.select",
    {
      summary: "Requests a thinking level (clamped to the model's); `scope` persists it to global or project settings.",
      result: closed({ requested: ref("ThinkingLevel"), effective: ref("ThinkingLevel"), persisted: { enum: ["global", "project", null] } }),
    },
  ],
]);
