import { RpcMethod, closed, inject, ref, type RpcHandler } from "../../core/family/family-api.js";
import { WORK_PLAN, type WorkPlanPort } from "./work-plan.port.js";
import { ReplacePlanParams } from "./replace-plan.params.js";

/** The client's way to do what the model does with `update_plan`: replace the whole plan. */
@RpcMethod({
  params: ReplacePlanParams,
  summary: "Replaces the work plan whole; its revision grows by one (plugin family).",
  result: closed({ workPlan: ref("WorkPlan") }),
})
export class ReplacePlanMethod implements RpcHandler<ReplacePlanParams> {
  constructor(@inject(WORK_PLAN) private readonly plans: WorkPlanPort) {}

  handle(params: ReplacePlanParams) {
    const steps = params.steps.map(({ id, title, status }) => (id === undefined ? { title, status } : { id, title, status }));
    return { workPlan: this.plans.replace(steps) };
  }
}
