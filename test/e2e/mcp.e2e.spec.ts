import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const EVERYTHING = resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FILESYSTEM = resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const FIXTURE = resolve("test/fixtures/mcp/fixture-server.mjs");
const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

const everything = { command: process.execPath, args: [EVERYTHING, "stdio"] };
const fixture = (mode: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [FIXTURE, mode], ...extra });

/** A Zi over a fresh ZI_HOME whose mcp.json names `servers`, driven by a faux script of tool calls. */
async function startZi(servers: Record<string, unknown>, responses: object[] = [], options: { env?: Record<string, string>; cwd?: string; args?: string[]; toolSearch?: string } = {}) {
  const home = tempDir("zi-e2e-mcp-");
  writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: servers, ...(options.toolSearch ? { toolSearch: options.toolSearch } : {}) }));
  const zi = new ZiProcess({ ziHome: home, fauxScript: { responses }, env: options.env, cwd: options.cwd, args: options.args });
  await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
  return zi;
}

const ready = (zi: ZiProcess, server: string) => zi.waitFor((f) => f.type === "session_event" && f.event.type === "mcp_server_changed" && f.event.server === server && f.event.state === "ready");

async function prompt(zi: ZiProcess, id: string, text = "go") {
  await zi.call(`p-${id}`, "session.prompt", { delivery: "direct", text, completionId: id });
  return zi.call(`w-${id}`, "session.await_idle", { completionId: id }, 60_000);
}

const toolEnd = (zi: ZiProcess, name: string) => zi.events("tool_execution_end").filter((event) => event.toolName === name);
const textOf = (result: any) => result.content.filter((part: any) => part.type === "text").map((part: any) => part.text).join("");

describe("MCP servers as tools: the reference `everything` server over stdio", () => {
  it("offers its tools as mcp__everything__*; echo returns the server's text, get-tiny-image an image part, resource links become text", async () => {
    const zi = await startZi({ everything }, [
      { toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "hi there" } }] },
      { toolCalls: [{ name: "mcp__everything__get-tiny-image", arguments: {} }] },
      { toolCalls: [{ name: "mcp__everything__get-resource-links", arguments: { count: 2 } }] },
      { text: "done" },
    ]);
    // `ready` never waits for servers: the first event about the server says it is starting.
    const first = await zi.waitFor((f) => f.type === "session_event" && f.event.type === "mcp_server_changed");
    expect(first.event).toEqual({ type: "mcp_server_changed", server: "everything", state: "starting", tools: 0 });
    await ready(zi, "everything");
    const listed = (await zi.call("l", "mcp.list")).result;
    expect(listed.toolSearch).toBe(false);
    expect(listed.servers[0]).toMatchObject({ name: "everything", source: "global", transport: "stdio", state: "ready", restarts: 0 });
    expect(listed.servers[0].tools).toEqual(expect.arrayContaining(["mcp__everything__echo", "mcp__everything__get-tiny-image", "mcp__everything__trigger-long-running-operation"]));
    await prompt(zi, "c1");
    const [echo] = toolEnd(zi, "mcp__everything__echo");
    expect(echo).toMatchObject({ isError: false, result: { content: [{ type: "text", text: "Echo: hi there" }] } });
    const [image] = toolEnd(zi, "mcp__everything__get-tiny-image");
    expect(image.isError).toBe(false);
    const picture = image.result.content.find((part: any) => part.type === "image");
    expect(picture).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(Buffer.from(picture.data, "base64").subarray(1, 4).toString()).toBe("PNG");
    const [links] = toolEnd(zi, "mcp__everything__get-resource-links");
    expect(textOf(links.result)).toMatch(/Resource link: .+ <[a-z]+:\/\/.+>/);
    expect(zi.stderr).toContain("[mcp everything] ");
    expect((await zi.close()).code).toBe(0);
  }, 60_000);

  it("streams progress of trigger-long-running-operation as tool_execution_update", async () => {
    const zi = await startZi({ everything }, [
      { toolCalls: [{ name: "mcp__everything__trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } }] },
      { text: "done" },
    ]);
    await prompt(zi, "c1");
    const updates = zi.events("tool_execution_update").map((event) => textOf(event.partialResult));
    expect(updates).toEqual(["progress 1/2", "progress 2/2"]);
    const [end] = toolEnd(zi, "mcp__everything__trigger-long-running-operation");
    expect(textOf(end.result)).toContain("Long running operation completed");
    expect((await zi.close()).code).toBe(0);
  }, 60_000);

  it("never shows env values: ${VAR} is expanded for the server, redacted from tool results, frames, journal and stderr", async () => {
    const secret = "zi-mcp-secret-4f1d9a7c";
    // With a journal (no --no-session), under ZI_HOME/sessions.
    const zi = await startZi(
      { everything: { ...everything, env: { ZI_FIXTURE_TOKEN: "${MCP_TOKEN}" } } },
      [{ toolCalls: [{ name: "mcp__everything__get-env", arguments: {} }] }, { text: "done" }],
      { env: { MCP_TOKEN: secret }, args: ["--mode", "rpc"] },
    );
    await prompt(zi, "c1");
    const [env] = toolEnd(zi, "mcp__everything__get-env");
    // The server did get the value (its name is there), but nothing Zi writes carries it.
    expect(textOf(env.result)).toContain('"ZI_FIXTURE_TOKEN": "[redacted]"');
    expect((await zi.close()).code).toBe(0);
    const everythingWritten = JSON.stringify(zi.frames) + zi.stderr;
    expect(everythingWritten).not.toContain(secret);
    const journals = filesUnder(join(zi.ziHome, "sessions"));
    expect(journals.length).toBe(1);
    expect(readFileSync(journals[0]!, "utf8")).toContain("ZI_FIXTURE_TOKEN");
    expect(readFileSync(journals[0]!, "utf8")).not.toContain(secret);
  }, 60_000);
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map((entry) => join(dir, String(entry)))
    .filter((path) => statSync(path).isFile());
}
