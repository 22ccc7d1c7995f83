import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { WORK_PLAN, type WorkPlanPort } from "./work-plan.port.js";
import { closed, ref } from "../../core/wire/json-schema.js";

@RpcMethod("plan.get", {
  summary: "The current work plan (plugin family).",
  result: closed({ workPlan: ref("WorkPlan") }),
  // The gateway is attached by this plugin's extension half, which runs in the deferred startup.
  awaitsStartup: true,
})
export class GetPlanMethod implements RpcHandler {
  constructor(@inject(WORK_PLAN) private readonly plans: WorkPlanPort) {}

  handle() {
    return { workPlan: this.plans.get() };
  }
}
