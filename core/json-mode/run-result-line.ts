import type { AgentSessionEvent, SessionEventOf, SessionUsage } from "../wire/session-types.js";
import type { BudgetHit } from "../wire/budget-types.js";
import { RUN_EXIT_CODES, type RunStatus } from "./run-exit-codes.js";

/** The last line of `zi --mode json` (docs/headless.md, "The result line"). */
export interface RunResult {
  type: "result";
  status: RunStatus;
  exitCode: number;
  /** The final assistant reply's text ("" when the run produced none). */
  text: string;
  /** The parsed answer, when an --output-schema was given and the answer matched it. */
  structured?: unknown;
  errorMessage?: string;
  /** `budget_exceeded`: which budget, its limit and what was used. */
  budget?: BudgetHit;
  usage: SessionUsage;
  /** The run's cost in USD, its delegated children's included (0 for models without a price). */
  costUsd: number;
  durationMs: number;
  /** The journal to resume with `--session`; null with `--no-session`. */
  sessionFile: string | null;
}

/** Folds a run's events into its result line: the last reply's text and how the run ended. */
export class RunResultLine {
  private readonly startedAt = Date.now();
  private text = "";
  /** Children's cost before this run (a resumed session's earlier tasks are not this run's). */
  private childrenCostBefore = 0;
  private end: SessionEventOf<"agent_end"> | undefined;

  start(usage: SessionUsage): void {
    this.childrenCostBefore = usage.children.cost;
  }

  observe(event: AgentSessionEvent): void {
    if (event.type === "agent_end") this.end = event;
    if (event.type !== "message_end") return;
    const message = event.message as { role?: string; content?: { type: string; text?: string }[] };
    if (message.role === "assistant") {
      this.text = (message.content ?? []).flatMap((block) => (block.type === "text" && typeof block.text === "string" ? [block.text] : [])).join("");
    }
  }

  /** `interrupted` overrides what the events say when a signal stopped the run. */
  build(usage: SessionUsage, sessionFile: string | null, interrupted: boolean, exitCode?: number): RunResult {
    const status = interrupted ? "interrupted" : RunResultLine.status(this.end?.reason);
    const result: RunResult = { type: "result", status, exitCode: exitCode ?? RUN_EXIT_CODES[status], text: this.text, usage, costUsd: 0, durationMs: Date.now() - this.startedAt, sessionFile };
    const end: Record<string, unknown> = this.end ?? {};
    if (end.structured !== undefined) result.structured = end.structured;
    if (typeof end.errorMessage === "string") result.errorMessage = end.errorMessage;
    if (end.budget !== undefined) result.budget = end.budget as BudgetHit;
    result.costUsd = Math.round(((usage.run?.cost ?? 0) + usage.children.cost - this.childrenCostBefore) * 1e6) / 1e6;
    return result;
  }

  private static status(reason: unknown): RunStatus {
    return typeof reason === "string" && reason !== "usage" && Object.hasOwn(RUN_EXIT_CODES, reason) ? (reason as RunStatus) : "failed";
  }
}
