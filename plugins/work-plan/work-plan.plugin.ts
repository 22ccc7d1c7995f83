import type { ZiPlugin } from "../../core/extensions/zi-plugin.js";
import { planFamily } from "./plan.family.js";
import { WorkPlanGateway } from "./work-plan-gateway.js";

/**
 * The example of a plugin that adds a method family: `plan.get` and `plan.replace`. Its extension
 * half receives the extension API; its family binds the gateway over that API for its handlers. A
 * factory, so that each Zi (and each test) gets its own gateway.
 */
export function createWorkPlanPlugin() {
  const gateway = new WorkPlanGateway();
  return {
    name: "work-plan",
    extension: (zi) => gateway.attach(zi),
    families: [planFamily(gateway)],
  } satisfies ZiPlugin;
}
