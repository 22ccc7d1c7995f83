/**
 * Types only: the method families the built-in plugins (plugins/builtin-plugins.ts) add, as their family
 * factories' return types. Kept apart from the plugin objects because the typed client's published
 * declarations derive their method map from this list: it must reach only method classes, their params
 * and ports (Zi's own wire types), never a plugin's extension half (the extension API, pi-ai and the
 * provider and MCP SDKs). builtin-plugins.ts checks at compile time that this list is exactly the
 * families its plugins serve, so a plugin's family cannot be missed here.
 */
import type { mcpFamily } from "./mcp/mcp.family.js";
import type { permissionFamily } from "./permissions/permission.family.js";
import type { planFamily } from "./work-plan/plan.family.js";

export type BuiltinPluginFamily = ReturnType<typeof planFamily> | ReturnType<typeof permissionFamily> | ReturnType<typeof mcpFamily>;
