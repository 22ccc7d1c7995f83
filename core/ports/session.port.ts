import type {
  AwaitIdleResult,
  MessagePage,
  OutcomePage,
  PromptInput,
  PromptResult,
  SessionEventListener,
  SessionState,
  SessionUsage,
  ToolCallInfo,
} from "../wire/session-types.js";

import type { ContextSummary } from "../wire/context-summary.js";
import type { BudgetReport, BudgetSettings } from "../wire/budget-types.js";

/** A call of one of the session's tools as its declaration describes it, and the changes its arguments name (edits). */
export interface DescribedToolCall {
  info: ToolCallInfo;
  changes: { path: string; oldText: string | null; newText: string }[];
}

/** A compaction written on request (`session.compact`): its summary, the first entry kept whole, the context size before. */
export interface CompactResult {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
}

/** Injection token for the session port: `@inject(SESSION) session: SessionPort`. */
export const SESSION = Symbol.for("zi.port.session");

/**
 * What `session.*` methods need from the AgentSession. Failures are thrown as RpcError with a
 * protocol code (`operation_failed`, `not_found`, `capacity`).
 */
export interface SessionPort {
  getState(): SessionState;
  /** How a call of the named tool presents itself, from the tool's declaration (an unknown tool: `other`, titled by its name). */
  describeToolCall(toolName: string, args: Record<string, unknown>): DescribedToolCall;
  /** Events in source order. The producer awaits a listener's returned promise before its next event. */
  subscribe(listener: SessionEventListener): () => void;
  prompt(input: PromptInput): Promise<PromptResult>;
  /** Why the selected model cannot take prompt images, or undefined when it can (or none is selected yet). */
  imageRefusal(): string | undefined;
  /** Discards queued steering and follow-up input, aborts the active run (and a pending retry wait or command); resolves once settled. */
  interrupt(): Promise<void>;
  /** Resolves when the session is idle; `signal` lets the caller stop waiting. */
  awaitIdle(completionId: string | undefined, signal: AbortSignal): Promise<AwaitIdleResult>;
  getMessages(start: number, limit: number): MessagePage;
  getOutcomes(start: number, limit: number): OutcomePage;
  /** Tokens, cost, model and tool calls: the session's, its current run's, its delegated children's. */
  getUsage(): SessionUsage;
  /** What the system prompt is built from (files, skills, problems); null until the deferred startup has loaded it. */
  getContext(): ContextSummary | null;
  /** Idle only: summarises the older context now (`instructions` added to the summariser's); operation_failed when nothing was compacted. */
  compact(instructions?: string): Promise<CompactResult>;
  /** Replaces the run and session budgets; a cost budget for a model without a price is refused (operation_failed). */
  setBudget(limits: BudgetSettings): BudgetReport;
}
