import { IsInt, IsNumber } from "class-validator";
import { DescribedRule, Optional, type BudgetName } from "../../core/family/family-api.js";

/** A limit is above zero: a budget of nothing is no budget (omit it instead). */
const Positive = () =>
  DescribedRule({
    name: "positive",
    jsonSchema: { exclusiveMinimum: 0 },
    validate: (value) => typeof value === "number" && value > 0,
    message: () => "a budget must be above 0",
  });

/** One scope's limits (BUDGET_NAMES; unknown keys are refused like any params key). */
export class BudgetLimitsParams implements Partial<Record<BudgetName, number>> {
  @Optional()
  @IsNumber()
  @Positive()
  maxCostUsd?: number;

  @Optional()
  @IsInt()
  @Positive()
  maxTokens?: number;

  @Optional()
  @IsInt()
  @Positive()
  maxTurns?: number;

  @Optional()
  @IsNumber()
  @Positive()
  maxSeconds?: number;
}
