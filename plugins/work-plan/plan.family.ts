import type { MethodFamily } from "../../core/family/family-api.js";
import { GetPlanMethod } from "./get-plan.method.js";
import { ReplacePlanMethod } from "./replace-plan.method.js";
import { WORK_PLAN, type WorkPlanPort } from "./work-plan.port.js";

/** `plan.*`, bound to one plugin instance's gateway (in the family's own scope). */
export function planFamily(gateway: WorkPlanPort) {
  return {
    family: "plan",
    methods: { "plan.get": GetPlanMethod, "plan.replace": ReplacePlanMethod },
    register: (scope) => void scope.registerInstance(WORK_PLAN, gateway),
  } satisfies MethodFamily;
}
