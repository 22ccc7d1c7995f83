import type { ZiPlugin } from "../core/extensions/zi-plugin.js";
import type { BuiltinPluginFamily } from "./builtin-plugin-families.js";
import { codingToolsPlugin } from "./coding-tools/coding-tools.plugin.js";
import { createDelegationPlugin } from "./delegation/delegation.plugin.js";
import { createMcpPlugin } from "./mcp/mcp.plugin.js";
import { createWorkPlanPlugin } from "./work-plan/work-plan.plugin.js";
import { createPermissionsPlugin } from "./permissions/permissions.plugin.js";
import { createTelemetryPlugin } from "./telemetry/telemetry.plugin.js";

/**
 * The plugins compiled into Zi, in activation order. Imported after `ready` (bin/zi-cli.ts). A typed
 * tuple, so that the families it serves are checked against plugins/builtin-plugin-families.ts (from
 * which the typed client derives its method map) below.
 */
export function builtinPlugins() {
  return [codingToolsPlugin, createWorkPlanPlugin(), createDelegationPlugin(), createPermissionsPlugin(), createMcpPlugin(), createTelemetryPlugin()] as const satisfies readonly ZiPlugin[];
}

type ServedFamily = ReturnType<typeof builtinPlugins>[number] extends infer P ? (P extends { readonly families: readonly (infer F)[] } ? F : never) : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile when a plugin serves a family builtin-plugin-families.ts does not list, or the reverse. */
export const FAMILY_LIST_MATCHES_PLUGINS: Same<ServedFamily, BuiltinPluginFamily> = true;
