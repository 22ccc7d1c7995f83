/**
 * The four budgets, named once: settings (`budget`), `session.set_budget`, the json/print flags
 * (`--max-cost-usd`, ... derived from these names) and the reports all come from this list.
 */
export const BUDGET_NAMES = ["maxCostUsd", "maxTokens", "maxTurns", "maxSeconds"] as const;
export type BudgetName = (typeof BUDGET_NAMES)[number];

/** Budgets that count whole things (tokens, turns) take integers; cost and seconds take any positive number. */
export const INTEGER_BUDGETS: ReadonlySet<BudgetName> = new Set<BudgetName>(["maxTokens", "maxTurns"]);

export type BudgetLimits = Partial<Record<BudgetName, number>>;
export type BudgetScope = "run" | "session";
export type BudgetSettings = Partial<Record<BudgetScope, BudgetLimits>>;

/** Which budget ended a run: the completion evidence, the `agent_end` event and the journaled outcome carry it. */
export interface BudgetHit {
  scope: BudgetScope;
  budget: BudgetName;
  limit: number;
  used: number;
}

/** `budget` in session.get_state and session.get_usage (present once a budget is set). */
export interface BudgetReport {
  limits: BudgetSettings;
  used: Record<BudgetScope, Record<BudgetName, number>>;
  /** Per limit set: what is left (never below 0). */
  left: BudgetSettings;
  /** The budget that ended the last run, null otherwise. */
  exceeded: BudgetHit | null;
}

/** `--max-cost-usd` for `maxCostUsd`: the flag of each budget, derived from its name. */
export const budgetFlag = (name: BudgetName): string => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
