import { RpcMethod, inject, type RpcHandler } from "../../core/family/family-api.js";
import { MCP_LISTING } from "./mcp-server-summary.schema.js";
import { MCP, type McpPort } from "./mcp.port.js";

@RpcMethod({
  summary: "Every MCP server with its state (starting, ready, failed, stopped), its tools and why it failed (plugin family).",
  result: MCP_LISTING,
})
export class ListMcpMethod implements RpcHandler {
  constructor(@inject(MCP) private readonly mcp: McpPort) {}

  handle() {
    return this.mcp.list();
  }
}
