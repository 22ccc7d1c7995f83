import { arrayOf, bool, closed, count, literal, str } from "../../core/family/family-api.js";

/** One server as `mcp.list` and `mcp.add` answer it (McpServerSummary). */
export const MCP_SERVER_SUMMARY = closed(
  {
    name: str,
    source: literal("global", "project", "runtime"),
    transport: literal("stdio", "http"),
    state: literal("starting", "ready", "failed", "stopped"),
    tools: arrayOf(str),
    error: str,
    collisions: arrayOf(str),
    restarts: count,
  },
  ["error", "collisions"],
);

export const MCP_LISTING = closed({ servers: arrayOf(MCP_SERVER_SUMMARY), toolSearch: bool });
