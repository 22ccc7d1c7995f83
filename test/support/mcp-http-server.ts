import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Server as McpServer } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/**
 * A Streamable HTTP MCP server on 127.0.0.1 (stateless: a fresh SDK server per request) with one tool,
 * `whoami`, which answers with the Authorization header it received. Records every request's headers.
 */
export class McpHttpServer {
  readonly headers: IncomingHttpHeaders[] = [];
  private readonly http: Server = createServer((request, response) => {
    this.headers.push(request.headers);
    const server = new McpServer({ name: "zi-http-fixture", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: "whoami", description: "Says which Authorization header came with the call", inputSchema: { type: "object", properties: {} } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({
      content: [{ type: "text", text: `authorized: ${request.headers.authorization === undefined ? "no" : "yes"}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => void transport.close().then(() => server.close()));
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.http.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}/mcp`;
  }

  async stop(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}
