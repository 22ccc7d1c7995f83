import { RpcError } from "../kernel/rpc-error.js";
import type { ResolvedModel } from "../models/model-runtime.js";
import { BUDGET_NAMES, INTEGER_BUDGETS } from "../wire/budget-types.js";
import type { BudgetHit, BudgetLimits, BudgetName, BudgetReport, BudgetScope, BudgetSettings } from "../wire/budget-types.js";
import type { UsageTotals } from "../wire/session-types.js";
import type { UsageLedger } from "./usage-ledger.js";

const SCOPES: readonly BudgetScope[] = ["run", "session"];
const refused = (message: string): RpcError => new RpcError("operation_failed", message);

/**
 * A session's budgets (docs/headless.md, "Budgets"): limits for each run and for the whole session,
 * measured from the usage ledger. Delegated children count: their ended tasks' tokens, cost and turns
 * are added to the parent's. A turn is one model call (retries included: they were paid for); seconds
 * are wall time of runs in this process. The run loop asks `exceeded()` at every turn boundary; the
 * `maxSeconds` timer aborts a run in the middle of a turn.
 */
export class SessionBudget {
  private limits: BudgetSettings = {};
  /** Whether any limit is set: asked by every `session.get_state`, so kept rather than recounted. */
  private hasLimits = false;
  private runStartedAt: number | undefined;
  private runChildrenBase: UsageTotals | undefined;
  private secondsBefore = 0;
  /** The last run's seconds, reported as the run's once it has ended. */
  private lastRunSeconds = 0;
  private lastHit: BudgetHit | null = null;

  constructor(
    private readonly usage: UsageLedger,
    private readonly model: () => ResolvedModel | undefined,
    initial: BudgetSettings | undefined,
    warn: (message: string) => void,
  ) {
    try {
      if (initial) this.useLimits(SessionBudget.check(initial, undefined));
    } catch (error) {
      warn(`zi: settings budget ignored: ${(error as Error).message}`);
    }
  }

  get active(): boolean {
    return this.hasLimits;
  }

  /** Replaces the limits; a cost budget is refused while the selected model has no price (it could not be measured). */
  set(limits: BudgetSettings): BudgetReport {
    this.useLimits(SessionBudget.check(limits, this.model()));
    this.lastHit = null;
    return this.fullReport();
  }

  /** Why a run cannot start under these limits, or undefined. */
  refusal(): string | undefined {
    const hasCost = SCOPES.some((scope) => this.limits[scope]?.maxCostUsd !== undefined);
    const model = this.model();
    if (hasCost && model && !SessionBudget.priced(model)) return SessionBudget.unpriced(model);
    const hit = this.exceededIn("session");
    return hit ? `the session budget ${hit.budget} (${hit.limit}) is spent: ${hit.used} used; raise it with session.set_budget` : undefined;
  }

  startRun(): void {
    this.runStartedAt = Date.now();
    this.runChildrenBase = { ...this.usage.snapshot().children };
    this.lastHit = null;
  }

  endRun(hit: BudgetHit | undefined): void {
    if (this.runStartedAt !== undefined) {
      this.lastRunSeconds = (Date.now() - this.runStartedAt) / 1000;
      this.secondsBefore += this.lastRunSeconds;
    }
    this.runStartedAt = undefined;
    this.lastHit = hit ?? null;
  }

  /** The first budget reached, run before session, in the order of BUDGET_NAMES. */
  exceeded(): BudgetHit | undefined {
    return this.exceededIn("run") ?? this.exceededIn("session");
  }

  /** Milliseconds until the nearest `maxSeconds`, for the timer that ends a run in mid-turn; undefined without one. */
  msUntilTimeLimit(): number | undefined {
    const used = this.used();
    const waits = SCOPES.flatMap((scope) => {
      const limit = this.limits[scope]?.maxSeconds;
      return limit === undefined ? [] : [Math.max(0, (limit - used[scope].maxSeconds) * 1000)];
    });
    return waits.length > 0 ? Math.min(...waits) : undefined;
  }

  /** The time budget that a timer found reached (the used seconds are at least the limit by then). */
  timeHit(): BudgetHit | undefined {
    const used = this.used();
    for (const scope of SCOPES) {
      const limit = this.limits[scope]?.maxSeconds;
      if (limit !== undefined) return { scope, budget: "maxSeconds", limit, used: Math.max(limit, used[scope].maxSeconds) };
    }
    return undefined;
  }

  /** For state and usage: null while no budget is set and none ended the last run. */
  report(): BudgetReport | null {
    return !this.active && this.lastHit === null ? null : this.fullReport();
  }

  private useLimits(limits: BudgetSettings): void {
    this.limits = limits;
    this.hasLimits = SCOPES.some((scope) => Object.keys(limits[scope] ?? {}).length > 0);
  }

  private fullReport(): BudgetReport {
    const used = this.used();
    const left: BudgetSettings = {};
    for (const scope of SCOPES) {
      const limits = this.limits[scope];
      if (!limits) continue;
      const scoped: BudgetLimits = {};
      for (const name of BUDGET_NAMES) if (limits[name] !== undefined) scoped[name] = round(Math.max(0, limits[name] - used[scope][name]));
      left[scope] = scoped;
    }
    return { limits: structuredClone(this.limits), used, left, exceeded: this.lastHit };
  }

  private exceededIn(scope: BudgetScope): BudgetHit | undefined {
    const limits = this.limits[scope];
    if (!limits) return undefined;
    const used = this.used()[scope];
    for (const name of BUDGET_NAMES) {
      const limit = limits[name];
      if (limit !== undefined && used[name] >= limit) return { scope, budget: name, limit, used: used[name] };
    }
    return undefined;
  }

  private used(): Record<BudgetScope, Record<BudgetName, number>> {
    const { session, run, children } = this.usage.snapshot();
    const now = Date.now();
    const running = this.runStartedAt !== undefined;
    const runSeconds = running ? (now - this.runStartedAt!) / 1000 : this.lastRunSeconds;
    const base = this.runChildrenBase;
    // The run in progress, or the last one (as get_usage's `run`).
    return {
      run: measure(run ?? undefined, base && minus(children, base), runSeconds),
      session: measure(session, children, this.secondsBefore + (running ? runSeconds : 0)),
    };
  }

  private static check(limits: BudgetSettings, model: ResolvedModel | undefined): BudgetSettings {
    if (typeof limits !== "object" || limits === null) throw refused("a budget is an object with run and/or session limits");
    const checked: BudgetSettings = {};
    for (const [scope, value] of Object.entries(limits)) {
      if (!SCOPES.includes(scope as BudgetScope)) throw refused(`unknown budget scope "${scope}" (run or session)`);
      if (value === undefined) continue;
      const scoped: BudgetLimits = {};
      for (const [name, limit] of Object.entries(value as Record<string, unknown>)) {
        if (!(BUDGET_NAMES as readonly string[]).includes(name)) throw refused(`unknown budget "${name}" (${BUDGET_NAMES.join(", ")})`);
        const budget = name as BudgetName;
        if (typeof limit !== "number" || !Number.isFinite(limit) || limit <= 0) throw refused(`${scope}.${name} must be a number > 0`);
        if (INTEGER_BUDGETS.has(budget) && !Number.isInteger(limit)) throw refused(`${scope}.${name} must be an integer`);
        if (budget === "maxCostUsd" && model && !SessionBudget.priced(model)) throw refused(SessionBudget.unpriced(model));
        scoped[budget] = limit;
      }
      checked[scope as BudgetScope] = scoped;
    }
    return checked;
  }

  private static priced(model: ResolvedModel): boolean {
    const cost = model.model.cost;
    return cost !== undefined && (cost.input > 0 || cost.output > 0);
  }

  private static unpriced(model: ResolvedModel): string {
    return `maxCostUsd cannot be measured: the model ${model.descriptor.provider}/${model.descriptor.id} has no price (set its cost in models.json, or use maxTokens)`;
  }
}

function measure(own: UsageTotals | undefined, children: UsageTotals | undefined, seconds: number): Record<BudgetName, number> {
  const sum = (pick: (t: UsageTotals) => number) => (own ? pick(own) : 0) + (children ? pick(children) : 0);
  return {
    maxCostUsd: round(sum((t) => t.cost)),
    maxTokens: sum((t) => t.input + t.output),
    maxTurns: sum((t) => t.modelCalls),
    maxSeconds: round(seconds),
  };
}

function minus(now: UsageTotals, base: UsageTotals): UsageTotals {
  const result = { ...now };
  for (const key of Object.keys(base) as (keyof UsageTotals)[]) result[key] = now[key] - base[key];
  return result;
}

/** Reports keep six decimals: cost in micro-dollars, seconds in microseconds. */
const round = (value: number): number => Math.round(value * 1e6) / 1e6;
