import { SANDBOX_MODES, THINKING_LEVELS, TOOL_CALL_KINDS, TOOL_EFFECTS } from "./session-types.js";
import { anyValue, arrayOf, bool, closed, count, described, literal, oneOf, ref, str, type JsonSchema } from "./json-schema.js";
import { WORK_PLAN_STEP_SCHEMA } from "./work-plan-step.js";
import { BUDGET_NAMES } from "./budget-types.js";
import type { WireTypes } from "./wire-types.js";

/**
 * The shared definitions (`$defs`) of the protocol description: the wire types of core/wire/session-types.ts
 * as JSON Schema. Those types leave no runtime metadata, so they are written here once; each method's
 * `result` refers to them, and test/core/schema/ checks real frames and results of the built zi against them.
 */

const PUBLIC_MODEL_FIELDS = {
  provider: str,
  id: str,
  name: str,
  reasoning: bool,
  input: { type: "array", items: { enum: ["text", "image"] } },
  contextWindow: count,
  maxTokens: count,
} satisfies Record<string, JsonSchema>;
const number: JsonSchema = { type: "number", minimum: 0 };
const BUDGET_LIMITS = closed(Object.fromEntries(BUDGET_NAMES.map((name) => [name, number])), BUDGET_NAMES);
const BUDGET_SCOPES = closed({ run: BUDGET_LIMITS, session: BUDGET_LIMITS }, ["run", "session"]);
const BUDGET_USED = closed(Object.fromEntries(BUDGET_NAMES.map((name) => [name, number])));
const OUTCOME_FIELDS = {
  id: str,
  parentId: { type: ["string", "null"] },
  timestamp: str,
  operationId: str,
  capability: str,
  operation: str,
  result: str,
  durationMs: { type: "number", minimum: 0 },
  evidence: { description: "Producer-owned, at most 8 KiB encoded." },
} satisfies Record<string, JsonSchema>;

const PERMISSION_ACTION = literal("allow", "ask", "deny");
const PERMISSION_RULE_FIELDS = {
  action: PERMISSION_ACTION,
  tool: str,
  command: str,
  path: str,
  outsideCwd: literal(true),
  readOnly: literal(true),
  effect: literal(...TOOL_EFFECTS),
};
const RULE_OPTIONAL = ["tool", "command", "path", "outsideCwd", "readOnly", "effect"] as const;

/** `tool_execution_start.call`: how the call presents itself, from its tool's declaration. */
export const TOOL_CALL_INFO = closed({ kind: literal(...TOOL_CALL_KINDS), title: str, locations: arrayOf(closed({ path: str, line: count }, ["line"])) });

/** A PermissionRequest's members: the `permission.list` items, the state's, and `permission_requested` beside its `type`. */
export const PERMISSION_REQUEST_FIELDS = {
  requestId: str,
  toolCallId: str,
  toolName: str,
  args: anyValue("The arguments, or (argsTruncated) their JSON clipped to a string."),
  argsTruncated: literal(true),
  summary: closed(
    { title: str, kind: literal(...TOOL_CALL_KINDS), command: str, path: str, outsideCwd: bool, diff: str, diffTruncated: literal(true) },
    ["kind", "command", "path", "outsideCwd", "diff", "diffTruncated"],
  ),
  rule: ref("DecidingRule"),
  alwaysRules: arrayOf(ref("PermissionRule")),
  delegation: ref("DelegationOrigin"),
  requestedAt: str,
  expiresAt: str,
};
export const PERMISSION_REQUEST_OPTIONAL = ["argsTruncated", "delegation", "expiresAt"] as const;

/** The permission family's shapes, shared by its methods, its events and the state. */
const PERMISSION_DEFS = {
  PermissionRule: described("A policy rule (docs/permissions.md).", closed(PERMISSION_RULE_FIELDS, RULE_OPTIONAL)),
  SourcedPermissionRule: closed({ ...PERMISSION_RULE_FIELDS, source: literal("global", "project", "runtime", "session") }, RULE_OPTIONAL),
  DecidingRule: oneOf(ref("SourcedPermissionRule"), closed({ action: PERMISSION_ACTION, source: literal("default") })),
  DelegationOrigin: closed({ delegationId: str, index: count, profile: str }),
  PermissionRequest: described(
    "A tool call waiting for a decision. `args` is the arguments, or their JSON clipped to a string when `argsTruncated`.",
    closed(PERMISSION_REQUEST_FIELDS, PERMISSION_REQUEST_OPTIONAL),
  ),
};

const USAGE_FIELDS = {
  input: count,
  output: count,
  cacheRead: count,
  cacheWrite: count,
  totalTokens: count,
  cost: { type: "number", minimum: 0, description: "US dollars, from the model catalogue's prices." },
  modelCalls: count,
  toolCalls: count,
} satisfies Record<string, JsonSchema>;

const SKILL = closed({ name: str, description: str, path: str });

export const WIRE_DEFS: { readonly [K in Exclude<keyof WireTypes, "Message" | "JournalEntry" | "Limits">]: JsonSchema } = {
  ...PERMISSION_DEFS,
  ContextSummary: {
    description: "What the system prompt is built from: paths and names, never the files' text (docs/context.md).",
    ...closed({
      cwd: str,
      gitRoot: { type: ["string", "null"] },
      projectTrusted: bool,
      contextFiles: { type: "array", items: closed({ path: str, clipped: { enum: ["file", "total", "omitted"] } }, ["clipped"]) },
      systemFiles: { type: "array", items: closed({ path: str, role: { enum: ["system", "append"] }, clipped: { const: true } }, ["clipped"]) },
      skills: { type: "array", items: SKILL },
      shadowedSkills: { type: "array", items: closed({ name: str, path: str, shadowedBy: str }) },
      omittedSkills: { type: "array", items: str },
      problems: { type: "array", items: closed({ source: str, error: str }) },
    }),
  },
  UsageTotals: closed(USAGE_FIELDS),
  SessionUsage: closed({
    session: ref("UsageTotals"),
    run: { anyOf: [closed({ ...USAGE_FIELDS, active: bool }), { type: "null" }] },
    children: closed({ ...USAGE_FIELDS, tasks: count }),
    budget: ref("BudgetReport"),
  }, ["budget"]),
  BudgetSettings: { description: "Run and session limits: maxCostUsd, maxTokens (input + output), maxTurns (model calls), maxSeconds.", ...BUDGET_SCOPES },
  BudgetHit: closed({ scope: { enum: ["run", "session"] }, budget: { enum: [...BUDGET_NAMES] }, limit: number, used: number }),
  BudgetReport: closed({ limits: ref("BudgetSettings"), used: closed({ run: BUDGET_USED, session: BUDGET_USED }), left: ref("BudgetSettings"), exceeded: { anyOf: [ref("BudgetHit"), { type: "null" }] } }),
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
  QueuedInput: {
    description: "A queued input as state and queue_update show it: `text` clipped to maxQueuedInputPreviewBytes (`textTruncated`, with the true size in `textBytes`); `imageCount` when it carries images.",
    ...closed({ text: str, completionId: str, textTruncated: { const: true }, textBytes: count, imageCount: count }, ["completionId", "textTruncated", "textBytes", "imageCount"]),
  },
  WorkPlan: closed({
    revision: count,
    steps: { type: "array", items: WORK_PLAN_STEP_SCHEMA },
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
    contextUsage: ref("ContextUsage"),
    permissionRequests: arrayOf(ref("PermissionRequest")),
    sandbox: ref("SandboxState"),
    budget: ref("BudgetReport"),
  }, ["budget"]),
  SandboxState: described(
    "Where bash runs (docs/sandbox.md); `support` says, before the first call, whether the sandbox can start here.",
    closed({
      mode: literal(...SANDBOX_MODES),
      network: bool,
      writableRoots: arrayOf(str),
      support: oneOf(
        closed({ status: literal("unchecked") }),
        closed({ status: literal("available"), base: literal("bubblewrap") }),
        closed({ status: literal("unavailable"), reason: str, fix: str }),
      ),
    }),
  ),
  ContextUsage: {
    oneOf: [
      closed({ type: { const: "unavailable" }, reason: { enum: ["no_model", "no_usage"] } }),
      closed({ type: { const: "available" }, tokens: count, contextWindow: count, percent: { type: "number", minimum: 0 } }),
    ],
  },
  CompletionEvidence: {
    description: "The latest assistant message_end of the cycle: text clipped to 50 KiB, error text to 8 KiB.",
    ...closed(
      { text: str, textTruncated: bool, stopReason: str, errorMessage: str, errorTruncated: bool, reason: str, budget: ref("BudgetHit"), structured: anyValue("The parsed answer valid against outputSchema.") },
      ["errorMessage", "errorTruncated", "reason", "budget", "structured"],
    ),
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
