import type { ZiPlugin } from "../core/extensions/zi-plugin.js";
import { codingToolsPlugin } from "./coding-tools.plugin.js";
import { createWorkPlanPlugin } from "./work-plan/work-plan.plugin.js";

/** The plugins compiled into Zi, in activation order. Imported after `ready` (bin/zi-cli.ts). */
export function builtinPlugins(): ZiPlugin[] {
  return [codingToolsPlugin, createWorkPlanPlugin()];
}
