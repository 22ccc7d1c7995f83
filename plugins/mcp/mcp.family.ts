import { lazy, type MethodFamily } from "../../core/family/family-api.js";
import { MCP, type McpPort } from "./mcp.port.js";

/** `mcp.*`, bound to one plugin instance's server manager (in the family's own scope). */
export function mcpFamily(servers: McpPort) {
  return {
    family: "mcp",
    // The servers are read by this plugin's extension half, which runs in the deferred startup.
    methods: {
      "mcp.list": lazy(() => import("./list.method.js"), "ListMcpMethod", { awaitsStartup: true }),
      "mcp.add": lazy(() => import("./add.method.js"), "AddMcpMethod", { awaitsStartup: true }),
      "mcp.remove": lazy(() => import("./remove.method.js"), "RemoveMcpMethod", { awaitsStartup: true }),
    },
    register: (scope) => void scope.registerInstance(MCP, servers),
  } satisfies MethodFamily;
}
