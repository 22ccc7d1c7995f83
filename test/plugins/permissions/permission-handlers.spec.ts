// Jest links ESM modules concurrently: only a first import in the test file itself is sure to load reflect-metadata first.
import "reflect-metadata";
import { describe, expect, it, jest } from "@jest/globals";
import { resolveHandler } from "../../../core/testing/testing-api.js";
import { RpcError } from "../../../core/kernel/rpc-error.js";
import { ListPermissionsMethod } from "../../../plugins/permissions/list-permissions.method.js";
import { PERMISSIONS, type PermissionPort } from "../../../plugins/permissions/permission.port.js";
import { ResolvePermissionMethod } from "../../../plugins/permissions/resolve-permission.method.js";
import { SetPolicyMethod } from "../../../plugins/permissions/set-policy.method.js";
import { commandParts } from "../../../plugins/permissions/bash-command.js";
import { PermissionPolicy, type PolicyLayer } from "../../../plugins/permissions/permission-policy.js";
import { callUnits } from "../../../plugins/permissions/call-units.js";
import { settingsPolicy } from "../../../plugins/permissions/permission-settings.js";
import { PermissionGateway } from "../../../plugins/permissions/permission-gateway.js";
import { createCodingTools } from "../../../plugins/coding-tools/coding-tools.factory.js";
import { declarationOf, describeCall } from "../../../core/session/tool-declaration.js";

/** The built-in tools, whose declarations the policy judges (an unknown name is an undeclared tool). */
const TOOLS = new Map(createCodingTools({ cwd: "/tmp/project", logDir: "/tmp/project-logs" }).map((tool) => [tool.name, tool]));
const unitsOf = (tool: string, args: Record<string, unknown>, cwd = "/tmp/project") => {
  const declaration = declarationOf(TOOLS.get(tool));
  return callUnits(tool, declaration.effect, describeCall(tool, declaration, args, cwd), cwd);
};

function portMock(): jest.Mocked<PermissionPort> {
  return {
    setPolicy: jest.fn((layer: PolicyLayer) => ({ default: layer.default ?? "allow", rules: layer.rules.map((rule) => ({ ...rule, source: "runtime" as const })) })),
    list: jest.fn(() => []),
    resolve: jest.fn(() => undefined),
    setSandbox: jest.fn((layer) => ({ mode: layer.mode, network: layer.network ?? false, writableRoots: layer.writableRoots ?? [], support: { status: "unchecked" as const } })),
  };
}

describe("permission.* handlers alone", () => {
  it("set_policy passes the client's layer (rules normalised) and returns the effective policy", async () => {
    const port = portMock();
    const handler = resolveHandler(SetPolicyMethod, { [PERMISSIONS]: port });
    const result = await handler.handle({ default: "ask", rules: [{ action: "allow", command: "git status" }], waitSeconds: 30 });
    expect(port.setPolicy).toHaveBeenCalledWith({ default: "ask", rules: [{ action: "allow", command: "git status" }], waitSeconds: 30 });
    expect(result).toEqual({ policy: { default: "ask", rules: [{ action: "allow", command: "git status", source: "runtime" }] } });
  });

  it("list returns the pending requests; resolve answers {} or passes not_found through", async () => {
    const port = portMock();
    expect(await resolveHandler(ListPermissionsMethod, { [PERMISSIONS]: port }).handle()).toEqual({ requests: [] });
    const resolve = resolveHandler(ResolvePermissionMethod, { [PERMISSIONS]: port });
    expect(await resolve.handle({ requestId: "r1", decision: "deny", message: "no" })).toEqual({});
    expect(port.resolve).toHaveBeenCalledWith("r1", "deny", "no");
    port.resolve.mockImplementation(() => {
      throw new RpcError("not_found", "gone");
    });
    expect(() => resolve.handle({ requestId: "r1", decision: "allow_once" })).toThrow(expect.objectContaining({ code: "not_found" }));
  });
});

describe("the gateway the family holds", () => {
  it("answers operation_failed until the plugin's deferred startup attached the controller", () => {
    const gateway = new PermissionGateway();
    expect(() => gateway.list()).toThrow(expect.objectContaining({ code: "operation_failed" }));
    const port = portMock();
    gateway.attach(port);
    expect(gateway.list()).toEqual([]);
    gateway.resolve("r", "allow_once");
    expect(port.resolve).toHaveBeenCalledWith("r", "allow_once", undefined);
  });
});

describe("the policy", () => {
  const evaluate = (policy: PermissionPolicy, tool: string, args: Record<string, unknown>) => policy.evaluate(unitsOf(tool, args)).action;

  it("splits compound commands, subshells and substitutions; a newline ends a command", () => {
    expect(commandParts("git status && (cd a; rm -rf b) | cat $(touch c)\nnpm test").map((part) => part.tokens.join(" "))).toEqual([
      "git status",
      "cd a",
      "rm -rf b",
      "touch c",
      "cat $(touch c)",
      "npm test",
    ]);
    expect(commandParts("git status && (cd a; rm -rf b) | cat $(touch c)\nnpm test").map((part) => part.opaque)).toEqual([false, true, true, false, true, false]);
    expect(commandParts("echo x > out.txt")[0]!.opaque).toBe(true);
    expect(commandParts("ls 2>&1 > /dev/null")[0]).toEqual({ tokens: ["ls"], opaque: false, runs: [["ls"]] });
  });

  it("allows a compound command only if every part is; deny beats session allow beats ask beats allow", () => {
    const policy = new PermissionPolicy();
    policy.setSettings("ask", [{ rule: { action: "allow", command: "git" }, source: "global" }, { rule: { action: "deny", command: "git push" }, source: "global" }], undefined);
    expect(evaluate(policy, "bash", { command: "git status" })).toBe("allow");
    expect(evaluate(policy, "bash", { command: "git status && curl x" })).toBe("ask");
    expect(evaluate(policy, "bash", { command: "git log; git push" })).toBe("deny");
    expect(evaluate(policy, "bash", { command: "git log > leak.txt" })).toBe("ask");
    policy.setRuntime({ default: "allow", rules: [{ action: "ask", tool: "mcp__github__*" }] });
    expect(evaluate(policy, "mcp__github__create_issue", {})).toBe("ask");
    expect(evaluate(policy, "mcp__other__x", {})).toBe("allow");
    policy.addSessionRules([{ action: "allow", tool: "mcp__github__create_issue" }]);
    expect(evaluate(policy, "mcp__github__create_issue", {})).toBe("allow");
  });

  it("matches write/edit paths relative to the cwd; outside the cwd is its own rule; readOnly covers the reading tools", () => {
    const policy = new PermissionPolicy();
    policy.setSettings("ask", [
      { rule: { action: "allow", path: "src/**" }, source: "global" },
      { rule: { action: "deny", outsideCwd: true }, source: "global" },
      { rule: { action: "allow", readOnly: true }, source: "global" },
    ], undefined);
    expect(evaluate(policy, "write", { path: "src/a/b.ts", content: "" })).toBe("allow");
    expect(evaluate(policy, "edit", { path: "README.md", edits: [] })).toBe("ask");
    expect(evaluate(policy, "write", { path: "../elsewhere/x", content: "" })).toBe("deny");
    expect(evaluate(policy, "write", { path: "/etc/passwd", content: "" })).toBe("deny");
    expect(evaluate(policy, "grep", { pattern: "x" })).toBe("allow");
    expect(evaluate(policy, "bash", { command: "cat x" })).toBe("ask");
  });

  it("an untrusted project may only tighten", () => {
    const global = { default: "ask", rules: [{ action: "allow", command: "ls" }] };
    const project = { default: "allow", rules: [{ action: "allow", tool: "*" }, { action: "deny", command: "rm" }], waitSeconds: 5 };
    const untrusted = settingsPolicy(global, project, false);
    expect(untrusted.default).toBe("ask");
    expect(untrusted.rules.map((r) => [r.source, r.rule.action])).toEqual([["global", "allow"], ["project", "deny"]]);
    expect(untrusted.waitSeconds).toBe(5);
    expect(untrusted.warnings.join("\n")).toMatch(/may only tighten/);
    const trusted = settingsPolicy(global, project, true);
    expect(trusted.default).toBe("allow");
    expect(trusted.rules).toHaveLength(3);
  });
});
