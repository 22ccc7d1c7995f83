import { describe, expect, it, jest } from "@jest/globals";
import type * as acp from "@agentclientprotocol/sdk";
import { AcpPermissionBridge } from "../../../core/acp/acp-permission-bridge.js";
import { mcpServerConfig, addMcpServers } from "../../../core/acp/acp-mcp-servers.js";
import { RpcError } from "../../../core/kernel/rpc-error.js";
import type { AcpPermissionPort as PermissionPort } from "../../../core/acp/acp-permission-bridge.js";
import type { PermissionRequest } from "../../../core/wire/session-types.js";

const request = (requestId: string, overrides: Partial<PermissionRequest> = {}): PermissionRequest => ({
  requestId,
  toolCallId: `call-${requestId}`,
  toolName: "bash",
  args: { command: "rm x" },
  summary: { title: "Run rm x", kind: "execute", command: "rm x" },
  rule: { action: "ask", source: "default" },
  alwaysRules: [{ action: "allow", command: "rm x" }],
  requestedAt: "2026-01-01T00:00:00.000Z",
  ...overrides,
});

function port() {
  const pending = new Set<string>();
  const mock = {
    pending,
    setPolicy: jest.fn((layer: unknown) => ({ default: "ask", rules: [], layer }) as never),
    list: jest.fn(() => []),
    resolve: jest.fn((requestId: string, _decision?: string, _message?: string) => {
      if (!pending.delete(requestId)) throw new RpcError("not_found", "settled");
    }),
  };
  return mock;
}

const selected = (optionId: string): acp.RequestPermissionResponse => ({ outcome: { outcome: "selected", optionId } });

describe("AcpPermissionBridge", () => {
  it("applies the default mode ask once attached, and each mode's layer on set_mode; an unknown mode is invalid params", () => {
    const zi = port();
    const bridge = new AcpPermissionBridge(async () => selected("allow_once"), () => undefined);
    bridge.setMode("accept-edits");
    expect(zi.setPolicy).not.toHaveBeenCalled();
    bridge.attach(zi as unknown as PermissionPort);
    expect(zi.setPolicy).toHaveBeenLastCalledWith(expect.objectContaining({ default: "ask", rules: expect.arrayContaining([{ effect: "edit", action: "allow" }]) }));
    bridge.setMode("full-access");
    expect(zi.setPolicy).toHaveBeenLastCalledWith({ default: "allow", rules: [] });
    expect(bridge.modes().currentModeId).toBe("full-access");
    expect(() => bridge.setMode("yolo")).toThrow(expect.objectContaining({ code: -32602 }));
  });

  it("maps each option to a decision; reject_always adds deny rules that outlive a mode change", async () => {
    const zi = port();
    const answers = ["allow_once", "allow_always", "reject_once", "reject_always"];
    const asked: Omit<acp.RequestPermissionRequest, "sessionId">[] = [];
    const bridge = new AcpPermissionBridge(async (params) => (asked.push(params), selected(answers[asked.length - 1]!)), () => undefined);
    bridge.attach(zi as unknown as PermissionPort);
    for (const id of ["a", "b", "c", "d"]) {
      zi.pending.add(id);
      await bridge.request(request(id));
    }
    expect(zi.resolve.mock.calls).toEqual([
      ["a", "allow_once", undefined],
      ["b", "allow_always", undefined],
      ["c", "deny", "rejected by the user"],
      ["d", "deny", "rejected by the user"],
    ]);
    expect(asked[0]).toMatchObject({ toolCall: { toolCallId: "call-a", title: "Run rm x", kind: "execute", status: "pending", rawInput: { command: "rm x" } } });
    expect(zi.setPolicy).toHaveBeenLastCalledWith({ default: "ask", rules: [{ readOnly: true, action: "allow" }, { action: "deny", command: "rm x" }] });
    bridge.setMode("full-access");
    expect(zi.setPolicy).toHaveBeenLastCalledWith({ default: "allow", rules: [{ action: "deny", command: "rm x" }] });
  });

  it("cancelAll denies every open request at once; the editor's later answer (or a failed request) changes nothing more", async () => {
    const zi = port();
    let answer: (response: acp.RequestPermissionResponse) => void = () => undefined;
    const bridge = new AcpPermissionBridge(() => new Promise((resolve) => (answer = resolve)), () => undefined);
    bridge.attach(zi as unknown as PermissionPort);
    zi.pending.add("a");
    const asking = bridge.request(request("a"));
    bridge.cancelAll();
    expect(zi.resolve.mock.calls).toEqual([["a", "deny", "cancelled"]]);
    answer(selected("allow_once"));
    await asking;
    expect(zi.resolve).toHaveBeenCalledTimes(1);

    const failing = new AcpPermissionBridge(async () => Promise.reject(new Error("client gone")), () => undefined);
    failing.attach(zi as unknown as PermissionPort);
    zi.pending.add("b");
    await failing.request(request("b"));
    expect(zi.resolve).toHaveBeenLastCalledWith("b", "deny", "cancelled");
  });
});

describe("ACP mcpServers", () => {
  it("stdio and HTTP entries take mcp.add's shape; SSE and refused entries are reported with their reason", async () => {
    expect(mcpServerConfig({ name: "s", command: "node", args: ["x"], env: [{ name: "A", value: "1" }] })).toEqual({ command: "node", args: ["x"], env: { A: "1" } });
    expect(mcpServerConfig({ type: "http", name: "h", url: "http://h/mcp", headers: [{ name: "Authorization", value: "t" }] })).toEqual({ url: "http://h/mcp", headers: { Authorization: "t" } });
    const add = jest.fn(async (name: string) => {
      if (name === "bad") throw new RpcError("operation_failed", 'server "bad": invalid configuration');
      return {};
    });
    const failed = await addMcpServers(add, [
      { name: "ok", command: "node", args: [], env: [] },
      { name: "bad", command: "", args: [], env: [] },
      { type: "sse", name: "old", url: "http://h/sse", headers: [] },
    ]);
    expect(add).toHaveBeenCalledTimes(2);
    expect(failed).toEqual([
      { name: "bad", problem: 'server "bad": invalid configuration' },
      { name: "old", problem: expect.stringContaining("SSE") },
    ]);
    expect(await addMcpServers(undefined, [{ name: "ok", command: "node", args: [], env: [] }])).toEqual([{ name: "ok", problem: "the MCP plugin is not loaded" }]);
  });
});
