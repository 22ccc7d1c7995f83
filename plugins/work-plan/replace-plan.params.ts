import { IsArray, ValidateBy } from "class-validator";
import type { WorkPlanStep } from "../../core/wire/session-types.js";
import { WORK_PLAN_LIMITS, WORK_PLAN_STEP_SCHEMA, workPlanStepsProblem } from "../../core/wire/work-plan-step.js";

/** The wire's one step rule (core/wire/work-plan-step.ts); the problem names the first bad step. */
const IsPlanSteps = () =>
  ValidateBy({
    name: "isPlanSteps",
    // How `zi schema` describes this rule (core/schema reads `constraints[0].jsonSchema`).
    constraints: [{ jsonSchema: { maxItems: WORK_PLAN_LIMITS.maxSteps, items: WORK_PLAN_STEP_SCHEMA } }],
    validator: {
      validate: (steps: unknown) => workPlanStepsProblem(steps) === undefined,
      defaultMessage: (args) => workPlanStepsProblem(args?.value) ?? "steps is invalid",
    },
  });

export class ReplacePlanParams {
  @IsArray()
  @IsPlanSteps()
  steps!: WorkPlanStep[];
}
