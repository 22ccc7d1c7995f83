import { RpcMethod, SESSION, inject, ref, type BudgetLimits, type RpcHandler, type SessionPort } from "../../core/family/family-api.js";
import type { BudgetLimitsParams } from "./budget-limits.params.js";
import { SetBudgetParams } from "./set-budget.params.js";

/** Plain limits without the absent fields a params object may carry. */
const limits = (params: BudgetLimitsParams | undefined): BudgetLimits | undefined =>
  params && Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));

@RpcMethod({
  params: SetBudgetParams,
  summary:
    "Replaces the run and session budgets (maxCostUsd, maxTokens, maxTurns, maxSeconds; docs/headless.md). A run that reaches one ends with agent_end reason budget_exceeded. maxCostUsd for a model without a price is operation_failed. Result: the budget report.",
  result: ref("BudgetReport"),
})
export class SetBudgetMethod implements RpcHandler<SetBudgetParams> {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle(params: SetBudgetParams) {
    const run = limits(params.run);
    const session = limits(params.session);
    return this.session.setBudget({ ...(run && { run }), ...(session && { session }) });
  }
}
