import { RpcMethod, closed, inject, ref, type RpcHandler } from "../../core/family/family-api.js";
import { WORK_PLAN, type WorkPlanPort } from "./work-plan.port.js";

@RpcMethod({
  summary: "The current work plan (plugin family).",
  result: closed({ workPlan: ref("WorkPlan") }),
})
export class GetPlanMethod implements RpcHandler {
  constructor(@inject(WORK_PLAN) private readonly plans: WorkPlanPort) {}

  handle() {
    return { workPlan: this.plans.get() };
  }
}
