import type { ZiPlugin } from "../../core/extensions/zi-plugin.js";
import { planFamily } from "./plan.family.js";
import { UpdatePlanTool } from "./update-plan.tool.js";
import { WorkPlanGateway } from "./work-plan-gateway.js";

/**
 * The work plan: the model's `update_plan` tool and the client's `plan.get` and `plan.replace`, the
 * example of a plugin that adds a method family. Its extension half receives the extension API and
 * registers the tool; its family binds the gateway over that API for its handlers. A factory, so that
 * each Zi (and each test) gets its own gateway.
 */
export function createWorkPlanPlugin() {
  const gateway = new WorkPlanGateway();
  return {
    name: "work-plan",
    extension: (zi) => {
      gateway.attach(zi);
      zi.registerTool(new UpdatePlanTool(async (steps) => zi.replaceWorkPlan(steps)));
    },
    families: [planFamily(gateway)],
  } satisfies ZiPlugin;
}
