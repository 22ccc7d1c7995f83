import type { BudgetHit, BudgetReport } from "./budget-types.js";
/**
 * The AgentSession's public data shapes: what `session.get_state` returns, what `session_event`
 * frames carry, and what the session/model/thinking ports take and give. Plain JSON only: every
 * value here crosses the wire as it is.
 */

import type { PromptImage } from "./prompt-image.js";
import type { SessionEvent, SessionEventOf, SessionEventType } from "./event-schemas.js";

export type { PromptImage };

export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh";
export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

export type Delivery = "direct" | "steer" | "follow_up" | "continue";
export type QueueMode = "one-at-a-time" | "all";
export type ActivityType = "idle" | "running" | "aborting" | "compacting" | "reloading" | "failed" | "disposed";

/** The public model projection: nothing else about a model crosses RPC. */
export interface PublicModel {
  provider: string;
  id: string;
  name: string;
  reasoning: boolean;
  input: ("text" | "image")[];
  contextWindow: number;
  maxTokens: number;
}

/** A catalogue entry adds whether credentials are available. */
export interface CatalogModel extends PublicModel {
  configured: boolean;
}

export type ModelState = { type: "unselected" } | ({ type: "selected" } & PublicModel);

export interface QueuedInput {
  text: string;
  completionId?: string;
  /** Held with the input until it is delivered; never shown (the state and queue_update show `imageCount`). */
  images?: PromptImage[];
  /** In the state and queue_update only: how many images the queued input carries. */
  imageCount?: number;
  /** In the state and queue_update only, when `text` was clipped to maxQueuedInputPreviewBytes. */
  textTruncated?: true;
  /** The queued text's true UTF-8 size; present with `textTruncated`. */
  textBytes?: number;
}

export interface WorkPlanStep {
  id?: string;
  title: string;
  status: "pending" | "in_progress" | "completed" | "cancelled";
}

export interface WorkPlan {
  revision: number;
  steps: WorkPlanStep[];
}

export type CompactionState = { type: "idle" } | { type: "compacting"; reason: "threshold" | "overflow" | "manual" };
export type RetryState =
  | { type: "idle" }
  | { type: "waiting"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string };
export type ContextUsage =
  | { type: "unavailable"; reason: "no_model" | "no_usage" }
  | { type: "available"; tokens: number; contextWindow: number; percent: number };

export type Activity = { type: Exclude<ActivityType, "failed"> } | { type: "failed"; errorMessage: string };

/** Which delegated child a tool call belongs to (absent for the session's own calls). */
export interface DelegationOrigin {
  delegationId: string;
  index: number;
  profile: string;
}

export type PermissionAction = "allow" | "ask" | "deny";
export type PermissionDecision = "allow_once" | "allow_always" | "deny";
/** Who settled a permission request (docs/permissions.md). */
export type PermissionDecider = "client" | "rule" | "timeout" | "interrupt" | "disconnect";

/** What a call of a tool does to the world, as the tool declares it (ACP's ToolKind names where they match). */
export type ToolEffect = "read" | "edit" | "execute" | "fetch" | "other";
export const TOOL_EFFECTS: readonly ToolEffect[] = ["read", "edit", "execute", "fetch", "other"];
/** How a call presents itself: its effect, or a finer display kind (ACP's `search`, `think`). */
export type ToolCallKind = ToolEffect | "search" | "think";
export const TOOL_CALL_KINDS: readonly ToolCallKind[] = [...TOOL_EFFECTS, "search", "think"];

/** A call as its tool describes it: `tool_execution_start.call`, and what ACP's tool-call cards show. */
export interface ToolCallInfo {
  kind: ToolCallKind;
  title: string;
  /** The paths it touches, absolute (resolved by the tool's own resolver); `line` where a read starts. */
  locations: { path: string; line?: number }[];
}

/** Where `bash` runs (docs/sandbox.md): modes named once, here. */
export type SandboxMode = "read-only" | "workspace-write" | "off";
/** From the strictest to the loosest: an untrusted project may only move left. */
export const SANDBOX_MODES: readonly SandboxMode[] = ["read-only", "workspace-write", "off"];

/** Whether the sandbox can start on this machine: checked once, after `ready`. */
export type SandboxSupport =
  | { status: "unchecked" }
  | { status: "available"; base: "bubblewrap" }
  | { status: "unavailable"; reason: string; fix: string };

/** The sandbox as `ready.state` and `session.get_state` show it. */
export interface SandboxState {
  mode: SandboxMode;
  /** Network inside the sandbox (with the sandbox `off`, commands reach whatever the user can). */
  network: boolean;
  /** Directories writable in `workspace-write` besides the cwd and a private tmp. */
  writableRoots: string[];
  support: SandboxSupport;
}

/** A policy rule as the `permission.*` family and settings.json spell it (docs/permissions.md). */
export interface PermissionRule {
  action: PermissionAction;
  tool?: string;
  command?: string;
  path?: string;
  outsideCwd?: true;
  readOnly?: true;
  /** The tools whose declared effect this is. */
  effect?: ToolEffect;
}

/** A rule with where it came from, as policies, requests and journal entries report it. */
export type SourcedPermissionRule = PermissionRule & { source: "global" | "project" | "runtime" | "session" };

/** The rule that decided: a sourced rule, or the policy's default. */
export type DecidingRule = SourcedPermissionRule | { action: PermissionAction; source: "default" };

/** What the call would do, for a person to read: the command, the path, the change. */
export interface PermissionSummary {
  title: string;
  /** The call's kind, from its tool's declaration. */
  kind?: ToolCallKind;
  command?: string;
  path?: string;
  outsideCwd?: boolean;
  diff?: string;
  diffTruncated?: true;
}

/** A tool call waiting for a decision: `permission.list`, `permission_requested`, the state. */
export interface PermissionRequest {
  requestId: string;
  toolCallId: string;
  toolName: string;
  /** The arguments as the tool will get them, or (`argsTruncated`) their JSON clipped to a string. */
  args: unknown;
  argsTruncated?: true;
  summary: PermissionSummary;
  rule: DecidingRule;
  /** The session rules `allow_always` would add. */
  alwaysRules: PermissionRule[];
  delegation?: DelegationOrigin;
  requestedAt: string;
  expiresAt?: string;
}

export interface SessionState {
  sessionId: string;
  activity: Activity;
  model: ModelState;
  thinkingLevel: ThinkingLevel;
  supportedThinkingLevels: ThinkingLevel[];
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  queuedInputs: { steering: QueuedInput[]; followUp: QueuedInput[] };
  workPlan: WorkPlan;
  messageCount: number;
  compaction: CompactionState;
  retry: RetryState;
  contextUsage: ContextUsage;
  /** Tool calls waiting for a permission decision, oldest first (docs/permissions.md). */
  permissionRequests: PermissionRequest[];
  /** Present once a budget is set (docs/headless.md, "Budgets"). */
  budget?: BudgetReport;
  /** Where `bash` runs (docs/sandbox.md). */
  sandbox: SandboxState;
}

export interface PromptInput {
  delivery: Delivery;
  text: string;
  completionId?: string;
  /** Checked by `session.prompt`'s params (base64, type signature, count and bytes) before they get here. */
  images?: PromptImage[];
  /** A JSON Schema the run's final answer must match (docs/headless.md, "Structured output"). */
  outputSchema?: Record<string, unknown>;
  /** A W3C `traceparent` the run's trace continues (docs/headless.md, "Traces"). */
  traceparent?: string;
}

export interface PromptResult {
  delivery: Delivery;
  admission: "started" | "queued" | "joined";
  completionRevision?: number;
}

export interface CompletionEvidence {
  text: string;
  textTruncated: boolean;
  stopReason: string;
  errorMessage?: string;
  errorTruncated?: boolean;
  /** How the run ended, and under a budget or an outputSchema what decided it (docs/headless.md). */
  reason?: string;
  budget?: BudgetHit;
  structured?: unknown;
}

export type AwaitIdleResult =
  | Record<string, never>
  | { completionId: string; completionRevision: number; messageCount: number; completion: CompletionEvidence | null };

/** The open outcome envelope shared by `operation_outcome` events and `session.get_outcomes` items. */
export interface OperationOutcome {
  id: string;
  parentId: string | null;
  timestamp: string;
  operationId: string;
  capability: string;
  operation: string;
  result: string;
  durationMs: number;
  evidence?: unknown;
}

export interface MessagePage {
  start: number;
  total: number;
  nextStart: number | null;
  messages: ({ index: number } & Record<string, unknown>)[];
}

export interface OutcomePage {
  start: number;
  total: number;
  nextStart: number | null;
  outcomes: ({ index: number } & OperationOutcome)[];
}

export interface ThinkingList {
  levels: ThinkingLevel[];
  current: ThinkingLevel;
}

export interface ThinkingSelection {
  requested: ThinkingLevel;
  effective: ThinkingLevel;
  persisted: "global" | "project" | null;
}

/**
 * Every event is a plain object with a `type`: one of the union core/wire/event-schemas.ts derives from
 * the events' JSON Schemas (one truth: a field added there reaches the wire description and the compiler).
 * The agent loop's events carry pi-ai messages as they are; `message_update` carries only the delta.
 * docs/events.md documents each event's fields.
 */
export type AgentSessionEvent = SessionEvent;
export type { SessionEventOf, SessionEventType };

/** A listener may return a promise to make the producer wait (output backpressure). */
export type SessionEventListener = (event: AgentSessionEvent) => void | Promise<void>;

/** Token and call totals (session.get_usage). `cost` is in US dollars, from the model catalogue's prices. */
export interface UsageTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: number;
  modelCalls: number;
  toolCalls: number;
}

export interface SessionUsage {
  /** This session's own model and tool calls, from its whole journal (a resumed session's earlier ones too). */
  session: UsageTotals;
  /** The run in progress, or the last one this process ran (`active: false`); null before the first. */
  run: (UsageTotals & { active: boolean }) | null;
  /** Delegated children whose tasks have ended (from their `subagent` end entries); `tasks` counts them. */
  children: UsageTotals & { tasks: number };
  /** Present once a budget is set: limits, used and left (docs/headless.md, "Budgets"). */
  budget?: BudgetReport;
}
