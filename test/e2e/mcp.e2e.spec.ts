import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { McpHttpServer } from "../support/mcp-http-server.js";
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
  // A loaded CI machine can take seconds to start node: prompts wait for servers longer than the default.
  const patient = Object.fromEntries(Object.entries(servers).map(([name, config]) => [name, { promptWaitMs: 120_000, ...(config as object) }]));
  writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: patient, ...(options.toolSearch ? { toolSearch: options.toolSearch } : {}) }));
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
      { toolCalls: [{ name: "mcp__everything__trigger-long-running-operation", arguments: { duration: 1, steps: 2 } }] },
      { text: "done" },
    ]);
    await prompt(zi, "c1");
    const updates = zi.events("tool_execution_update").map((event) => textOf(event.partialResult));
    // The last step's notification travels with the result, and the SDK drops progress that arrives
    // with its response; the first step's, half the duration earlier, always arrives on its own.
    expect(updates[0]).toBe("progress 1/2");
    for (const update of updates) expect(update).toMatch(/^progress [12]\/2$/);
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

describe("MCP servers as tools: Streamable HTTP", () => {
  it("connects to a url with ${VAR} headers; the header reaches the server, never a frame or stderr", async () => {
    const http = new McpHttpServer();
    const url = await http.start();
    try {
      const token = "Bearer zi-http-secret-77aa0c";
      const zi = await startZi(
        { remote: { url, headers: { Authorization: "${MCP_HTTP_AUTH}" } } },
        [{ toolCalls: [{ name: "mcp__remote__whoami", arguments: {} }] }, { text: "done" }],
        { env: { MCP_HTTP_AUTH: token } },
      );
      await prompt(zi, "c1");
      expect(textOf(toolEnd(zi, "mcp__remote__whoami")[0].result)).toBe("authorized: yes");
      expect((await zi.call("l", "mcp.list")).result.servers[0]).toMatchObject({ name: "remote", transport: "http", state: "ready" });
      expect(http.headers.length).toBeGreaterThan(0);
      for (const headers of http.headers) expect(headers.authorization).toBe(token);
      expect((await zi.close()).code).toBe(0);
      expect(JSON.stringify(zi.frames) + zi.stderr).not.toContain("zi-http-secret");
    } finally {
      await http.stop();
    }
  }, 60_000);
});

describe("MCP servers as tools: the reference filesystem server", () => {
  it("lists and reads files of the directory it was given", async () => {
    const root = tempDir("zi-e2e-mcp-fs-");
    writeFileSync(join(root, "notes.txt"), "filesystem through MCP\n");
    const zi = await startZi({ files: { command: process.execPath, args: [FILESYSTEM, root] } }, [
      { toolCalls: [{ name: "mcp__files__list_directory", arguments: { path: root } }] },
      { toolCalls: [{ name: "mcp__files__read_text_file", arguments: { path: join(root, "notes.txt") } }] },
      { text: "done" },
    ]);
    await prompt(zi, "c1");
    expect(textOf(toolEnd(zi, "mcp__files__list_directory")[0].result)).toContain("[FILE] notes.txt");
    expect(textOf(toolEnd(zi, "mcp__files__read_text_file")[0].result)).toContain("filesystem through MCP");
    expect((await zi.close()).code).toBe(0);
  }, 60_000);
});

describe("MCP servers as tools: servers that misbehave never take Zi down", () => {
  it("a server that hangs at start-up: the prompt waits up to promptWaitMs, goes on without it and says so; the server fails at startupTimeoutMs", async () => {
    // Two hanging servers: `stuck` outlives the test (its note cannot race its failure), `doomed` fails.
    const servers = { stuck: fixture("hang", { promptWaitMs: 200, startupTimeoutMs: 600_000 }), doomed: fixture("hang", { promptWaitMs: 0, startupTimeoutMs: 1500 }), everything };
    const zi = await startZi(servers, [
      { toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "still works" } }] },
      { text: "done" },
    ]);
    await prompt(zi, "c1");
    const note = zi.events("mcp_server_changed").find((event) => event.server === "stuck" && event.note);
    expect(note).toMatchObject({ state: "starting", tools: 0, note: expect.stringContaining("the prompt went on without it: still starting after 200 ms") });
    expect(zi.stderr).toContain("zi: MCP server stuck: the prompt went on without it");
    expect(textOf(toolEnd(zi, "mcp__everything__echo")[0].result)).toBe("Echo: still works");
    const failed = await zi.waitFor((f) => f.type === "session_event" && f.event.type === "mcp_server_changed" && f.event.server === "doomed" && f.event.state === "failed");
    // It ignores stdin's end, so the stop's SIGTERM ends it; its stderr is quoted if it got to write it in time.
    expect(failed.event.error).toMatch(/^could not start: did not answer initialize and tools\/list within 1500 ms \(the process was killed by SIGTERM\)(; its stderr ends: fixture hang started \(pid \d+\))?$/);
    const listed = (await zi.call("l", "mcp.list")).result.servers;
    expect(listed.find((server: any) => server.name === "doomed")).toMatchObject({ state: "failed", tools: [] });
    expect(listed.find((server: any) => server.name === "stuck")).toMatchObject({ state: "starting", tools: [] });
    expect((await zi.close()).code).toBe(0);
  }, 60_000);

  it("a server that crashes mid-call: an error result, a failed event with the exit code and stderr, then a restart on the next call", async () => {
    const zi = await startZi({ fragile: fixture("well") }, [
      { toolCalls: [{ name: "mcp__fragile__ping", arguments: {} }] },
      { toolCalls: [{ name: "mcp__fragile__crash", arguments: {} }] },
      { toolCalls: [{ name: "mcp__fragile__ping", arguments: {} }] },
      { text: "done" },
    ]);
    await prompt(zi, "c1");
    const [first, second] = toolEnd(zi, "mcp__fragile__ping");
    const [crash] = toolEnd(zi, "mcp__fragile__crash");
    expect(crash.isError).toBe(true);
    expect(textOf(crash.result)).toContain('MCP server "fragile"');
    const failed = zi.events("mcp_server_changed").find((event) => event.state === "failed");
    expect(failed.error).toContain("exited with code 3");
    expect(failed.error).toContain("fixture crashing on purpose");
    expect(failed.error).toContain("restart 1 of 3");
    expect(failed.tools).toBeGreaterThan(0);
    const pids = [first, second].map((end) => /pong from (\d+)/.exec(textOf(end.result))?.[1]);
    expect(pids[0]).toBeDefined();
    expect(pids[1]).toBeDefined();
    expect(pids[1]).not.toBe(pids[0]);
    const listed = (await zi.call("l", "mcp.list")).result.servers[0];
    expect(listed).toMatchObject({ state: "ready", restarts: 1 });
    expect((await zi.close()).code).toBe(0);
  }, 60_000);

  it("a server that prints garbage on stdout: the lines are skipped, its tools work", async () => {
    const zi = await startZi({ noisy: fixture("garbage") }, [{ toolCalls: [{ name: "mcp__noisy__ping", arguments: {} }] }, { text: "done" }]);
    await prompt(zi, "c1");
    expect(textOf(toolEnd(zi, "mcp__noisy__ping")[0].result)).toMatch(/^pong from \d+$/);
    expect((await zi.close()).code).toBe(0);
  }, 60_000);

  it("a server that cannot be spawned, and an invalid entry, are failed with their reasons", async () => {
    const zi = await startZi({ missing: { command: "/nonexistent/mcp-server" }, wrong: { command: "x", url: "http://127.0.0.1:1/mcp" } });
    await zi.waitFor((f) => f.type === "session_event" && f.event.type === "mcp_server_changed" && f.event.server === "missing" && f.event.state === "failed");
    const servers = (await zi.call("l", "mcp.list")).result.servers;
    expect(servers.find((server: any) => server.name === "missing").error).toContain("ENOENT");
    expect(servers.find((server: any) => server.name === "wrong")).toMatchObject({ state: "failed", error: expect.stringContaining('exactly one of "command"') });
    expect((await zi.close()).code).toBe(0);
  }, 60_000);
});

describe("MCP servers as tools: lifecycle", () => {
  it("honours tools/list_changed: a tool the server adds mid-run is offered from the next model call", async () => {
    const zi = await startZi({ lively: fixture("well") }, [
      { toolCalls: [{ name: "mcp__lively__add-tool", arguments: {} }] },
      { toolCalls: [{ name: "mcp__lively__extra", arguments: {} }] },
      { text: "done" },
    ]);
    await prompt(zi, "c1");
    const [extra] = toolEnd(zi, "mcp__lively__extra");
    expect(extra).toMatchObject({ isError: false, result: { content: [{ type: "text", text: "extra works" }] } });
    expect((await zi.call("l", "mcp.list")).result.servers[0].tools).toContain("mcp__lively__extra");
    expect((await zi.close()).code).toBe(0);
  }, 60_000);

  it("a call without an answer ends at toolTimeoutMs with an error result the model reads", async () => {
    const zi = await startZi({ slow: fixture("well", { toolTimeoutMs: 300 }) }, [{ toolCalls: [{ name: "mcp__slow__wait", arguments: {} }] }, { text: "done" }]);
    await prompt(zi, "c1");
    const [end] = toolEnd(zi, "mcp__slow__wait");
    expect(end.isError).toBe(true);
    expect(textOf(end.result)).toContain("Request timed out");
    expect((await zi.close()).code).toBe(0);
  }, 60_000);

  it("session.interrupt cancels a running call with MCP cancellation", async () => {
    const log = join(tempDir("zi-e2e-mcp-log-"), "fixture.log");
    const zi = await startZi({ slow: fixture("well", { env: { MCP_FIXTURE_LOG: log } }) }, [{ toolCalls: [{ name: "mcp__slow__wait", arguments: {} }] }, { text: "never" }]);
    await ready(zi, "slow");
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go", completionId: "c1" });
    // Interrupt once the server is running the call, so that there is a request to cancel.
    await waitUntil(() => existsSync(log) && readFileSync(log, "utf8").includes("waiting "));
    await zi.call("i", "session.interrupt");
    const [end] = toolEnd(zi, "mcp__slow__wait");
    expect(end.isError).toBe(true);
    // The server hears notifications/cancelled for the request (it logs the request it was told to drop).
    await waitUntil(() => existsSync(log) && readFileSync(log, "utf8").includes("cancelled "));
    expect((await zi.close()).code).toBe(0);
  }, 60_000);

  it("at exit, every server's process group is stopped (a grandchild included)", async () => {
    const pidFile = join(tempDir("zi-e2e-mcp-pid-"), "grandchild.pid");
    const zi = await startZi({ parent: fixture("well", { env: { MCP_FIXTURE_GRANDCHILD: pidFile } }) });
    await ready(zi, "parent");
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    expect(alive(grandchild)).toBe(true);
    expect((await zi.close()).code).toBe(0);
    await waitUntil(() => !alive(grandchild));
  }, 60_000);

  it("mcp.add starts a server at run time (as ACP's session/new hands them over), mcp.remove withdraws it", async () => {
    const zi = await startZi({});
    const added = await zi.call("a", "mcp.add", { name: "late", config: fixture("well") });
    expect(added.result).toMatchObject({ name: "late", source: "runtime", transport: "stdio", state: "starting", tools: [] });
    await ready(zi, "late");
    expect((await zi.call("l", "mcp.list")).result.servers[0].tools).toContain("mcp__late__ping");
    const refused = await zi.call("b", "mcp.add", { name: "bad", config: { command: 5 } });
    expect(refused.error).toMatchObject({ code: "operation_failed", message: expect.stringContaining("command must be a string") });
    expect((await zi.call("r", "mcp.remove", { name: "late" })).result).toEqual({});
    const stopped = await zi.waitFor((f) => f.type === "session_event" && f.event.type === "mcp_server_changed" && f.event.state === "stopped");
    expect(stopped.event).toEqual({ type: "mcp_server_changed", server: "late", state: "stopped", tools: 0 });
    expect((await zi.call("l2", "mcp.list")).result.servers).toEqual([]);
    expect((await zi.call("r2", "mcp.remove", { name: "late" })).error.code).toBe("not_found");
    expect((await zi.close()).code).toBe(0);
  }, 60_000);
});

describe("MCP servers as tools: the project's .zi/mcp.json", () => {
  const projectWith = () => {
    const project = tempDir("zi-e2e-mcp-project-");
    mkdirSync(join(project, ".zi"));
    writeFileSync(join(project, ".zi", "mcp.json"), JSON.stringify({ mcpServers: { local: fixture("well") } }));
    return project;
  };

  it("is skipped in an untrusted project, with one stderr line and one extension_error", async () => {
    const project = projectWith();
    const zi = await startZi({}, [], { cwd: project });
    expect((await zi.call("l", "mcp.list")).result.servers).toEqual([]);
    const [error] = zi.events("extension_error");
    expect(error).toMatchObject({ extension: join(project, ".zi", "mcp.json"), error: expect.stringContaining("is not trusted") });
    expect((await zi.close()).code).toBe(0);
  });

  it("starts its servers in a trusted project", async () => {
    const project = projectWith();
    const zi = await startZi({}, [], { cwd: project, args: ["--mode", "rpc", "--no-session", "--trust-project"] });
    await ready(zi, "local");
    expect((await zi.call("l", "mcp.list")).result.servers[0]).toMatchObject({ name: "local", source: "project", state: "ready" });
    expect((await zi.close()).code).toBe(0);
  }, 60_000);
});

describe("MCP servers as tools: the search-and-call mode", () => {
  it('toolSearch "on" offers one mcp_tools tool that finds tools with their schemas and calls them', async () => {
    const zi = await startZi({ everything }, [
      { toolCalls: [{ name: "mcp_tools", arguments: { query: "echo" } }] },
      { toolCalls: [{ name: "mcp_tools", arguments: { call: "mcp__everything__echo", arguments: { message: "found" } } }] },
      { text: "done" },
    ], { toolSearch: "on" });
    await ready(zi, "everything");
    const listed = (await zi.call("l", "mcp.list")).result;
    expect(listed.toolSearch).toBe(true);
    await prompt(zi, "c1");
    const [search, call] = toolEnd(zi, "mcp_tools");
    const found = JSON.parse(textOf(search.result));
    expect(found[0]).toMatchObject({ name: "mcp__everything__echo", inputSchema: { type: "object" } });
    expect(textOf(call.result)).toBe("Echo: found");
    expect((await zi.close()).code).toBe(0);
  }, 60_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for a condition outside Zi's frames (a file a server writes, a process ending); Jest's timeout bounds it. */
async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe("MCP schemas past their bounds (issue 25)", () => {
  it("a tool whose schema nests 2,000 levels deep or weighs over 64 KiB is left out with its reason; the others are offered and called", async () => {
    const zi = await startZi({ shapes: fixture("schemas") }, [{ toolCalls: [{ name: "mcp__shapes__ping", arguments: {} }] }, { text: "done" }]);
    await ready(zi, "shapes");
    const listed = (await zi.call("l", "mcp.list", {})).result.servers.find((server: { name: string }) => server.name === "shapes");
    expect(listed.collisions).toEqual(["deep (its input schema nests deeper than 64 levels)", "wide (its input schema is larger than 64 KiB)"]);
    expect(listed.tools).toEqual(["mcp__shapes__ping", "mcp__shapes__wait", "mcp__shapes__add-tool", "mcp__shapes__crash"]);
    await prompt(zi, "one");
    expect(textOf(toolEnd(zi, "mcp__shapes__ping")[0].result)).toMatch(/^pong/);
    expect(zi.stderr).toContain("tools left out: deep (its input schema nests deeper than 64 levels)");
    await zi.close();
  }, 120_000);
});
