import { lazy, type MethodFamily } from "../../core/family/family-api.js";
import { WORK_PLAN, type WorkPlanPort } from "./work-plan.port.js";

/** `plan.*`, bound to one plugin instance's gateway (in the family's own scope). */
export function planFamily(gateway: WorkPlanPort) {
  return {
    family: "plan",
    // The gateway is attached by this plugin's extension half, which runs in the deferred startup.
    methods: {
      "plan.get": lazy(() => import("./get-plan.method.js"), "GetPlanMethod", { awaitsStartup: true }),
      "plan.replace": lazy(() => import("./replace-plan.method.js"), "ReplacePlanMethod", { awaitsStartup: true }),
    },
    register: (scope) => void scope.registerInstance(WORK_PLAN, gateway),
  } satisfies MethodFamily;
}
