import { IsArray } from "class-validator";
import { DescribedRule, locatedBy, WORK_PLAN_LIMITS, WORK_PLAN_STEP_SCHEMA, workPlanStepsFault, workPlanStepsProblem, type WorkPlanStep } from "../../core/family/family-api.js";

/**
 * The wire's one step rule (core/wire/work-plan-step.ts). The first fault is reported where it is,
 * `params.steps.<index>.<key>` (`locatedBy`), like every nested params problem.
 */
const IsPlanSteps = () =>
  DescribedRule({
    name: "isPlanSteps",
    // How `zi schema` describes this rule: merged into the property's schema.
    jsonSchema: { maxItems: WORK_PLAN_LIMITS.maxSteps, items: WORK_PLAN_STEP_SCHEMA },
    validate: (steps) => workPlanStepsProblem(steps) === undefined,
    message: (steps) => workPlanStepsProblem(steps) ?? "steps is invalid",
  }, locatedBy(workPlanStepsFault));

export class ReplacePlanParams {
  @IsArray()
  @IsPlanSteps()
  steps!: WorkPlanStep[];
}
