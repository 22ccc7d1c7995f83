import { describe, expect, it } from "@jest/globals";
import { MCP_LIMITS } from "../../../plugins/mcp/mcp-limits.js";
import { McpServerConfigParser } from "../../../plugins/mcp/mcp-server-config.js";

const parser = new McpServerConfigParser({ TOKEN: "secret-value", EMPTY: "" }, "/project");
const problem = (raw: unknown): string => {
  const entry = parser.parse("s", raw, "global");
  if (!entry || !("problem" in entry)) throw new Error(`expected a problem, got ${JSON.stringify(entry)}`);
  return entry.problem;
};

describe("McpServerConfigParser", () => {
  it("reads a stdio entry with defaults, expands ${VAR} and ${VAR:-default} in env, resolves cwd", () => {
    const entry = parser.parse("s", { command: "node", args: ["a.js"], env: { A: "${TOKEN}", B: "x-${MISSING:-fallback}", C: "${EMPTY:-d}" }, cwd: "sub" }, "project");
    expect(entry).toEqual({
      config: {
        name: "s",
        source: "project",
        transport: "stdio",
        command: "node",
        args: ["a.js"],
        env: { A: "secret-value", B: "x-fallback", C: "d" },
        cwd: "/project/sub",
        headers: {},
        secrets: expect.arrayContaining(["secret-value", "x-fallback", "d"]),
        promptWaitMs: MCP_LIMITS.defaultPromptWaitMs,
        startupTimeoutMs: MCP_LIMITS.defaultStartupTimeoutMs,
        toolTimeoutMs: MCP_LIMITS.defaultToolTimeoutMs,
      },
    });
  });

  it("reads an HTTP entry and expands its headers", () => {
    const entry = parser.parse("s", { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" }, toolTimeoutMs: 5000 }, "global");
    expect(entry).toMatchObject({ config: { transport: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer secret-value" }, toolTimeoutMs: 5000 } });
    // The expanded value on its own too: a server may echo the token without its "Bearer ".
    expect(entry && "config" in entry && entry.config.secrets).toEqual(["secret-value", "Bearer secret-value"]);
  });

  it("skips a disabled entry", () => {
    expect(parser.parse("s", { command: "x", disabled: true }, "global")).toBeUndefined();
  });

  it.each([
    [{ command: "x", env: { A: "${UNSET}" } }, "env.A uses ${UNSET}, which is not set"],
    [{ command: "x", url: "http://a" }, 'exactly one of "command"'],
    [{}, 'exactly one of "command"'],
    [{ command: "x", colour: "red" }, 'unknown key "colour"'],
    [{ command: "x", args: [1] }, "args must be an array of strings"],
    [{ command: "x", headers: {} }, '"headers" is for HTTP servers'],
    [{ url: "file:///etc/passwd" }, "url must be http or https"],
    [{ url: "not a url" }, "url is not a URL"],
    [{ command: "x", env: { A: 1 } }, "env.A must be a string"],
    [{ command: "x", promptWaitMs: -1 }, "promptWaitMs must be an integer"],
    [{ command: "x", type: "sse" }, 'type "sse" is not supported'],
    ["node", "must be an object"],
  ])("refuses %j: %s", (raw, message) => {
    expect(problem(raw)).toContain(message);
  });

  it("a refused entry keeps the transport it asked for: a url entry is http, as mcp.list shows it", () => {
    expect(parser.parse("s", { url: "file:///etc/passwd" }, "global")).toMatchObject({ transport: "http" });
    expect(parser.parse("s", { command: "x", colour: "red" }, "global")).toMatchObject({ transport: "stdio" });
  });
});
