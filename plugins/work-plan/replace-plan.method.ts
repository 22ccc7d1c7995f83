import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { WORK_PLAN, type WorkPlanPort } from "./work-plan.port.js";
import { ReplacePlanParams } from "./replace-plan.params.js";
import { closed, ref } from "../../core/wire/json-schema.js";

/** The client's way to do what the model does with `update_plan`: replace the whole plan. */
@RpcMethod("plan.replace", {
  params: ReplacePlanParams,
  summary: "Replaces the work plan whole; its revision grows by one (plugin family).",
  result: closed({ workPlan: ref("WorkPlan") }),
  // The gateway is attached by this plugin's extension half, which runs in the deferred startup.
  awaitsStartup: true,
})
export class ReplacePlanMethod implements RpcHandler<ReplacePlanParams> {
  constructor(@inject(WORK_PLAN) private readonly plans: WorkPlanPort) {}

  handle(params: ReplacePlanParams) {
    const steps = params.steps.map(({ id, title, status }) => (id === undefined ? { title, status } : { id, title, status }));
    return { workPlan: this.plans.replace(steps) };
  }
}
