import type { WorkPlan, WorkPlanStep } from "../../core/family/family-api.js";

/** Injection token of the `plan.*` family's one dependency, bound by the family's own `register`. */
export const WORK_PLAN = Symbol.for("zi.plugin.work-plan");

export interface WorkPlanPort {
  get(): WorkPlan;
  /** Replaces the whole plan; throws RpcError `operation_failed` for an invalid step. */
  replace(steps: WorkPlanStep[]): WorkPlan;
}
