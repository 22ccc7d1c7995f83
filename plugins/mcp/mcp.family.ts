import type { MethodFamily } from "../../core/family/family-api.js";
import { AddMcpMethod } from "./add.method.js";
import { ListMcpMethod } from "./list.method.js";
import { MCP, type McpPort } from "./mcp.port.js";
import { RemoveMcpMethod } from "./remove.method.js";

/** `mcp.*`, bound to one plugin instance's server manager (in the family's own scope). */
export function mcpFamily(servers: McpPort) {
  return {
    family: "mcp",
    methods: { "mcp.list": ListMcpMethod, "mcp.add": AddMcpMethod, "mcp.remove": RemoveMcpMethod },
    register: (scope) => void scope.registerInstance(MCP, servers),
  } satisfies MethodFamily;
}
