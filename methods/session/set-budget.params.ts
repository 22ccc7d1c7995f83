import { NestedParams, Optional } from "../../core/family/family-api.js";
import { BudgetLimitsParams } from "./budget-limits.params.js";

export class SetBudgetParams {
  @Optional()
  @NestedParams(() => BudgetLimitsParams)
  run?: BudgetLimitsParams;

  @Optional()
  @NestedParams(() => BudgetLimitsParams)
  session?: BudgetLimitsParams;
}
