import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolEffect } from "../../core/session/tool-declaration.js";

/**
 * An MCP tool's effect from its `annotations`, which the server vouches for (hints, not guarantees):
 * `read` only when it says it only reads and touches no open world (`openWorldHint` defaults to true
 * in MCP), `fetch` when it only reads from an open world, and `other` for everything else, unannotated
 * tools included: they never count as read-only.
 */
export function mcpToolEffect(tool: Pick<Tool, "annotations">): ToolEffect {
  const hints = tool.annotations;
  if (hints?.readOnlyHint !== true) return "other";
  return hints.openWorldHint === false ? "read" : "fetch";
}
