import { describe, expect, it, jest } from "@jest/globals";
import { McpGateway } from "../../../plugins/mcp/mcp-gateway.js";
import type { McpPort, McpServerSummary } from "../../../plugins/mcp/mcp.port.js";

const summary: McpServerSummary = { name: "s", source: "runtime", transport: "stdio", state: "starting", tools: [], restarts: 0 };

describe("McpGateway", () => {
  it("answers as a manager that was never activated until one is attached", async () => {
    const gateway = new McpGateway();
    expect(gateway.list()).toEqual({ servers: [], toolSearch: false });
    expect(() => gateway.add("s", { command: "node" })).toThrow(expect.objectContaining({ code: "operation_failed", message: "the mcp plugin is not active" }));
    expect(await gateway.remove("s")).toBe(false);
  });

  it("hands every call to the attached manager", async () => {
    const manager: jest.Mocked<McpPort> = {
      list: jest.fn(() => ({ servers: [summary], toolSearch: true })),
      add: jest.fn(() => summary),
      remove: jest.fn(async () => true),
    };
    const gateway = new McpGateway();
    gateway.attach(manager);
    const config = { command: "node", args: ["server.js"] };
    expect(gateway.list()).toEqual({ servers: [summary], toolSearch: true });
    expect(gateway.add("s", config)).toBe(summary);
    expect(manager.add).toHaveBeenCalledWith("s", config);
    expect(await gateway.remove("s")).toBe(true);
    expect(manager.remove).toHaveBeenCalledWith("s");
  });
});
