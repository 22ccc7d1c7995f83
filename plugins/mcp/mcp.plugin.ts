import type { ZiPlugin } from "../../core/extensions/zi-plugin.js";
import { mcpFamily } from "./mcp.family.js";
import { McpServerManager } from "./mcp-server-manager.js";

/**
 * MCP servers as ordinary tools (docs/mcp.md): the extension half reads `mcp.json` and starts the
 * servers in the background; the `mcp.*` family shows and changes them. A factory: each Zi (and
 * each test) gets its own servers.
 */
export function createMcpPlugin(environment: NodeJS.ProcessEnv = process.env) {
  const servers = new McpServerManager(environment);
  return {
    name: "mcp",
    extension: (zi, services) => servers.attach(zi, services),
    families: [mcpFamily(servers)],
  } satisfies ZiPlugin;
}
