import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import type { ToolDeclaration } from "../../core/session/tool-declaration.js";
import { MCP_LIMITS } from "./mcp-limits.js";

/** One server tool under Zi's name. */
export interface McpToolEntry {
  name: string;
  server: string;
  tool: Tool;
}

export type McpToolExecutor = (entry: McpToolEntry, args: Record<string, unknown>, context: AgentToolContext) => Promise<AgentToolResult>;

export const MCP_SEARCH_TOOL = "mcp_tools";

const words = (text: string): string[] => text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 1);

/**
 * The search-and-call mode (`toolSearch`): one tool instead of every MCP tool's schema. The model
 * searches by words (names and descriptions), gets the best matches with their input schemas, then
 * calls one by name with its arguments; the server checks them against its schema.
 */
export class McpSearchTool implements AgentTool {
  readonly name = MCP_SEARCH_TOOL;
  readonly description: string;
  readonly parameters = {
    type: "object",
    properties: {
      query: { type: "string", description: "Words to find MCP tools by (their names and descriptions). Returns the best matches with their input schemas." },
      call: { type: "string", description: "The exact name of an MCP tool to call (from a search)." },
      arguments: { type: "object", description: "The arguments of the call, as the tool's input schema describes them." },
    },
    additionalProperties: false,
  };
  /** It may call any MCP tool by name, so it is never read-only, whatever the tool it calls declares. */
  readonly declaration: ToolDeclaration = { effect: "other", describe: (args) => ({ title: typeof args.call === "string" ? `Call ${args.call}` : `Search MCP tools`, paths: [] }) };
  private readonly byName: ReadonlyMap<string, McpToolEntry>;

  constructor(
    private readonly entries: readonly McpToolEntry[],
    private readonly executor: McpToolExecutor,
  ) {
    this.byName = new Map(entries.map((entry) => [entry.name, entry]));
    const servers = new Map<string, number>();
    for (const entry of entries) servers.set(entry.server, (servers.get(entry.server) ?? 0) + 1);
    const list = [...servers].map(([server, count]) => `${server} (${count})`).join(", ");
    this.description =
      `Finds and calls tools of the connected MCP servers: ${list}. ` +
      `First search with {"query": "..."}; then call with {"call": "<tool name>", "arguments": {...}}.`;
  }

  async execute(args: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    if (typeof args.call === "string") {
      const entry = this.byName.get(args.call);
      if (!entry) return { content: [{ type: "text", text: `No MCP tool is named "${args.call}"; search first.` }], isError: true };
      const callArgs = args.arguments ?? {};
      if (typeof callArgs !== "object" || callArgs === null || Array.isArray(callArgs)) {
        return { content: [{ type: "text", text: "arguments must be an object" }], isError: true };
      }
      return this.executor(entry, callArgs as Record<string, unknown>, context);
    }
    const query = typeof args.query === "string" ? words(args.query) : [];
    if (query.length === 0) return { content: [{ type: "text", text: 'Give "query" (words to search for) or "call" (a tool name).' }], isError: true };
    const scored = this.entries
      .map((entry) => {
        const name = words(`${entry.server} ${entry.tool.name}`);
        const text = words(entry.tool.description ?? "");
        const score = query.reduce((sum, word) => sum + (name.some((w) => w.includes(word)) ? 3 : 0) + (text.includes(word) ? 1 : 0), 0);
        return { entry, score };
      })
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, MCP_LIMITS.searchResults);
    if (scored.length === 0) return { content: [{ type: "text", text: "No MCP tool matches; try other words." }] };
    const found = scored.map(({ entry }) => ({ name: entry.name, description: entry.tool.description ?? "", inputSchema: entry.tool.inputSchema }));
    return { content: [{ type: "text", text: JSON.stringify(found, null, 1) }] };
  }
}
