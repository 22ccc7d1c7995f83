// Jest links ESM modules concurrently: only a first import in the test file itself is sure to load
// reflect-metadata before tsyringe.
import "reflect-metadata";
import { describe, expect, it, jest } from "@jest/globals";
import { resolveHandler } from "../../../core/testing/testing-api.js";
import { AddMcpMethod } from "../../../plugins/mcp/add.method.js";
import { ListMcpMethod } from "../../../plugins/mcp/list.method.js";
import { MCP, type McpPort, type McpServerSummary } from "../../../plugins/mcp/mcp.port.js";
import { RemoveMcpMethod } from "../../../plugins/mcp/remove.method.js";

const summary: McpServerSummary = { name: "s", source: "runtime", transport: "stdio", state: "starting", tools: [], restarts: 0 };

function port(): jest.Mocked<McpPort> {
  return {
    list: jest.fn(() => ({ servers: [summary], toolSearch: false })),
    add: jest.fn(() => summary),
    remove: jest.fn(async (name: string) => name === "s"),
  };
}

describe("the mcp.* handlers", () => {
  it("mcp.list answers the port's listing", async () => {
    const mcp = port();
    expect(await resolveHandler(ListMcpMethod, { [MCP]: mcp }).handle()).toEqual({ servers: [summary], toolSearch: false });
  });

  it("mcp.add hands the name and the entry to the port", async () => {
    const mcp = port();
    const config = { command: "node", args: ["server.js"] };
    expect(await resolveHandler(AddMcpMethod, { [MCP]: mcp }).handle({ name: "s", config })).toBe(summary);
    expect(mcp.add).toHaveBeenCalledWith("s", config);
  });

  it("mcp.remove answers {} or not_found", async () => {
    const handler = resolveHandler(RemoveMcpMethod, { [MCP]: port() });
    expect(await handler.handle({ name: "s" })).toEqual({});
    await expect(handler.handle({ name: "other" })).rejects.toMatchObject({ code: "not_found" });
  });
});
