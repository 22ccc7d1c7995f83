import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const FILESYSTEM = resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

/** A Zi whose mcp.json runs the reference filesystem server over `cwd`, sandboxed as `sandbox` says (or not). */
async function startZi(cwd: string, sandbox: string | undefined) {
  const home = mkdtempSync(join(tmpdir(), "zi-e2e-mcp-sbx-"));
  const server = { command: process.execPath, args: [FILESYSTEM, cwd], promptWaitMs: 120_000, ...(sandbox ? { sandbox } : {}) };
  writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { fs: server } }));
  const write = { toolCalls: [{ name: "mcp__fs__write_file", arguments: { path: join(cwd, "written.txt"), content: "x" } }] };
  const zi = new ZiProcess({ ziHome: home, cwd, fauxScript: { responses: [write, { text: "done" }] } });
  await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
  await zi.call("p", "session.prompt", { delivery: "direct", text: "go", completionId: "c" });
  await zi.call("w", "session.await_idle", { completionId: "c" }, 60_000);
  return { zi, end: zi.events("tool_execution_end")[0] };
}

describe("a stdio MCP server in the sandbox, by its own setting (real bwrap, the reference filesystem server)", () => {
  it("unsandboxed, the server writes into the cwd; with sandbox: read-only its write fails and leaves nothing", async () => {
    const open = mkdtempSync(join(tmpdir(), "zi-mcp-sbx-cwd-"));
    const free = await startZi(open, undefined);
    expect(free.end.isError).toBe(false);
    expect(existsSync(join(open, "written.txt"))).toBe(true);
    await free.zi.close();

    const closed = mkdtempSync(join(tmpdir(), "zi-mcp-sbx-cwd-"));
    const boxed = await startZi(closed, "read-only");
    expect(boxed.end.isError).toBe(true);
    expect(JSON.stringify(boxed.end.result)).toMatch(/EROFS|read-only file system/i);
    expect(existsSync(join(closed, "written.txt"))).toBe(false);
    await boxed.zi.close();
  }, 90_000);
});
