import type { ZiPlugin } from "../core/extensions/zi-plugin.js";
import { codingToolsPlugin } from "./coding-tools/coding-tools.plugin.js";
import { createDelegationPlugin } from "./delegation/delegation.plugin.js";
import { createMcpPlugin } from "./mcp/mcp.plugin.js";
import { createWorkPlanPlugin } from "./work-plan/work-plan.plugin.js";
import { createPermissionsPlugin } from "./permissions/permissions.plugin.js";

/**
 * The plugins compiled into Zi, in activation order. Imported after `ready` (bin/zi-cli.ts). A typed
 * tuple: the typed client derives its method map from these plugins' families.
 */
export function builtinPlugins() {
  return [codingToolsPlugin, createWorkPlanPlugin(), createDelegationPlugin(), createPermissionsPlugin(), createMcpPlugin()] as const satisfies readonly ZiPlugin[];
}
