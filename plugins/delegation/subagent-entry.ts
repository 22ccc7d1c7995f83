import type { UsageTotals } from "../../core/wire/session-types.js";

/** Shapes of the `data` of the parent journal's `subagent` entries (docs/delegation.md). */

export const SUBAGENT_TASK_MAX_BYTES = 8 * 1024;
export const SUBAGENT_RESULT_MAX_BYTES = 50 * 1024;

export type SubagentStatus = "completed" | "failed" | "interrupted" | "budget_exceeded";

/** A child's tokens and cost (its calls are counted by the parent's usage ledger, not recorded here). */
export type SubagentUsage = Omit<UsageTotals, "modelCalls" | "toolCalls">;

export interface SubagentStartData {
  phase: "start";
  /** Shared by the tasks of one `delegate` call. */
  delegationId: string;
  /** The task's position in the call (0 for the single form). */
  index: number;
  profile: string;
  /** The child's model as `provider/id` (null when the child session could not be created). */
  model: string | null;
  task: string;
  taskTruncated: boolean;
  /** null when the child session could not be created (its end entry says why). */
  childSessionId: string | null;
  /** Relative to ZI_HOME (absolute when outside it); null when the child's journal is in memory. */
  childJournal: string | null;
}

export interface SubagentEndData {
  phase: "end";
  delegationId: string;
  index: number;
  profile: string;
  childSessionId: string | null;
  status: SubagentStatus;
  turns: number;
  toolCalls: number;
  usage: SubagentUsage;
  durationMs: number;
  result: string;
  resultTruncated: boolean;
  /** Why it failed or what budget it exceeded. */
  error?: string;
}
