import type { McpServerSource } from "./mcp-server-config.js";

/** Injection token of the `mcp.*` family's one dependency, bound by the family's own `register`. */
export const MCP = Symbol.for("zi.plugin.mcp");

/** Declared here, not beside the connection: the port (and the typed client through it) must not reach the MCP SDK's types. */
export type McpServerState = "starting" | "ready" | "failed" | "stopped";

/** One server as `mcp.list` and `mcp.add` show it: never its env, headers or arguments (they may hold secrets). */
export interface McpServerSummary {
  name: string;
  source: McpServerSource;
  transport: "stdio" | "http";
  state: McpServerState;
  /** The tools the model is offered from this server, by Zi's names (`mcp__<server>__<tool>`). */
  tools: string[];
  error?: string;
  /** Server tools left out because their Zi name was taken (by another server's tool or an extension's). */
  collisions?: string[];
  restarts: number;
}

export interface McpListing {
  servers: McpServerSummary[];
  /** Whether the model is offered the one `mcp_tools` search-and-call tool instead of every schema now. */
  toolSearch: boolean;
}

export interface McpPort {
  list(): McpListing;
  /** Adds a server (or replaces the one of that name) and starts it in the background. */
  add(name: string, config: Record<string, unknown>): McpServerSummary;
  /** Stops and removes a server; false when there is none of that name. */
  remove(name: string): Promise<boolean>;
}
