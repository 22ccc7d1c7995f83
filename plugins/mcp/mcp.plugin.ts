import type { ZiPlugin } from "../../core/extensions/zi-plugin.js";
import { mcpFamily } from "./mcp.family.js";
import { McpGateway } from "./mcp-gateway.js";

// Imported in the deferred startup: the family's handlers need only the gateway.
const loadManager = () => import("./mcp-server-manager.js");

/**
 * MCP servers as ordinary tools (docs/mcp.md): the extension half reads `mcp.json` and starts the
 * servers in the background; the `mcp.*` family shows and changes them. A factory: each Zi (and
 * each test) gets its own servers.
 */
export function createMcpPlugin(environment: NodeJS.ProcessEnv = process.env) {
  const gateway = new McpGateway();
  return {
    name: "mcp",
    preload: loadManager,
    async extension(zi, services) {
      const { McpServerManager } = await loadManager();
      const servers = new McpServerManager(environment);
      gateway.attach(servers);
      await servers.attach(zi, services);
    },
    families: [mcpFamily(gateway)],
  } satisfies ZiPlugin;
}
