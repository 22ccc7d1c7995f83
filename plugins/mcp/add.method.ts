import { RpcMethod, inject, type RpcHandler } from "../../core/family/family-api.js";
import { AddMcpParams } from "./add.params.js";
import { MCP_SERVER_SUMMARY } from "./mcp-server-summary.schema.js";
import { MCP, type McpPort } from "./mcp.port.js";

/** How a front end (ACP's `session/new` mcpServers) or a client adds servers at run time. */
@RpcMethod({
  params: AddMcpParams,
  summary: "Adds an MCP server (or replaces the one of that name) and starts it in the background (plugin family).",
  result: MCP_SERVER_SUMMARY,
})
export class AddMcpMethod implements RpcHandler<AddMcpParams> {
  constructor(@inject(MCP) private readonly mcp: McpPort) {}

  handle(params: AddMcpParams) {
    return this.mcp.add(params.name, params.config);
  }
}
