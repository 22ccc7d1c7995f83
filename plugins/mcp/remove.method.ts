import { EMPTY_RESULT, RpcError, RpcMethod, inject, type RpcHandler } from "../../core/family/family-api.js";
import { RemoveMcpParams } from "./remove.params.js";
import { MCP, type McpPort } from "./mcp.port.js";

@RpcMethod({
  params: RemoveMcpParams,
  summary: "Stops an MCP server and withdraws its tools from the next model call (plugin family).",
  result: EMPTY_RESULT,
  errors: ["not_found"],
})
export class RemoveMcpMethod implements RpcHandler<RemoveMcpParams> {
  constructor(@inject(MCP) private readonly mcp: McpPort) {}

  async handle(params: RemoveMcpParams) {
    if (!(await this.mcp.remove(params.name))) throw new RpcError("not_found", `no MCP server is named "${params.name}"`);
    return {};
  }
}
