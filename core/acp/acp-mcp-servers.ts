// The unstable schema's servers (what the agent app parses), which add an `acp` transport.
import type * as acp from "@agentclientprotocol/sdk/unstable";
/** The MCP family's `mcp.add`, as the session's method client calls it (undefined without the MCP plugin). */
export type McpAdd = (name: string, config: Record<string, unknown>) => Promise<unknown>;

const record = (pairs: readonly { name: string; value: string }[]): Record<string, string> => Object.fromEntries(pairs.map((pair) => [pair.name, pair.value]));

/**
 * An ACP `mcpServers` entry in the shape `mcp.add` takes (docs/mcp.md): stdio `{ command, args, env }`,
 * Streamable HTTP `{ url, headers }`. SSE is not a transport Zi's MCP plugin speaks (and is not
 * advertised), so such an entry has no configuration.
 */
export function mcpServerConfig(server: acp.McpServer): Record<string, unknown> | undefined {
  // SSE, and the unstable schema's `acp` transport: not transports the MCP plugin speaks.
  if ("type" in server && server.type !== "http") return undefined;
  if ("url" in server) return { url: server.url, headers: record(server.headers) };
  return { command: server.command, args: [...server.args], env: record(server.env) };
}

/**
 * Hands the editor's servers to the session's MCP family (`mcp.add`, source `runtime`): each starts
 * in the background, and the model's first call waits for them as for `mcp.json`'s servers. Returns
 * the servers that could not be added, each with its reason, for the user to be told.
 */
export async function addMcpServers(add: McpAdd | undefined, servers: readonly acp.McpServer[]): Promise<{ name: string; problem: string }[]> {
  const failed: { name: string; problem: string }[] = [];
  for (const server of servers) {
    const config = mcpServerConfig(server);
    if (!add) failed.push({ name: server.name, problem: "the MCP plugin is not loaded" });
    else if (!config) failed.push({ name: server.name, problem: `${"type" in server ? server.type.toUpperCase() : "these"} servers are not supported; use Streamable HTTP or stdio` });
    else {
      try {
        await add(server.name, config);
      } catch (error) {
        failed.push({ name: server.name, problem: (error as Error).message });
      }
    }
  }
  return failed;
}
