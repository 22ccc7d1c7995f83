import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());
const servers: OpenAICompatibleServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
const PLANTED_KEY = "sk-planted-stderr-0a1b2c3d4e5f-DO-NOT-LEAK";

/** Every path under `root` with its permission bits, `root` included. */
function modes(root: string): Map<string, number> {
  const found = new Map<string, number>([[root, statSync(root).mode & 0o777]]);
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath ?? (entry as any).path, entry.name);
    found.set(path, statSync(path).mode & 0o777);
  }
  return found;
}

function expectPrivate(root: string): void {
  for (const [path, mode] of modes(root)) {
    const expected = statSync(path).isDirectory() ? 0o700 : 0o600;
    expect(`${path} ${mode.toString(8)}`).toBe(`${path} ${expected.toString(8)}`);
  }
}

describe("zi as a black box: files Zi creates are private to the user", () => {
  it("--no-session: ZI_HOME, the bash output log and the extension cache are 0700 dirs and 0600 files", async () => {
    const home = join(tempDir("zi-e2e-private-"), "zi-home"); // not there yet: Zi creates it
    const extension = join(tempDir("zi-e2e-private-ext-"), "hello.ts");
    writeFileSync(extension, 'export default (zi: any): void => zi.registerCommand("hello", { handler: () => ({ message: "hi" }) });\n');
    const script = { responses: [{ toolCalls: [{ name: "bash", arguments: { command: "seq 1 200000" } }] }, { text: "done" }] };
    const scriptFile = ZiProcess.fauxScriptFile(tempDir("zi-e2e-private-script-"), script);
    const zi = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--no-session", "--extension", extension, "--faux-script", scriptFile], cwd: tmpdir() });
    expect((await zi.call("l", "command.list")).result.commands.map((command: any) => command.name)).toEqual(["hello"]);
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "count", completionId: "c" });
    await zi.call("w", "session.await_idle", { completionId: "c" });
    const [bash] = zi.events("tool_execution_end");
    expect(bash.result.details.fullOutputPath).toMatch(new RegExp(`^${join(home, "logs")}/`));
    expect((await zi.close()).code).toBe(0);
    const paths = [...modes(home).keys()];
    expect(paths).toEqual(expect.arrayContaining([home, join(home, "logs"), bash.result.details.fullOutputPath, join(home, "cache", "jiti")]));
    expect(paths.some((path) => path.startsWith(join(home, "cache", "jiti") + "/"))).toBe(true);
    expectPrivate(home);
  });

  it("with a session: the journal, settings written by thinking.select (global and project) and their directories", async () => {
    const home = join(tempDir("zi-e2e-private-"), "zi-home");
    const project = tempDir("zi-e2e-private-project-");
    const scriptFile = ZiProcess.fauxScriptFile(tempDir("zi-e2e-private-script-"), { responses: [] });
    const zi = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--faux-script", scriptFile], cwd: project });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("g", "thinking.select", { level: "low", scope: "global" });
    await zi.call("p", "thinking.select", { level: "high", scope: "project" });
    expect((await zi.close()).code).toBe(0);
    expect([...modes(home).keys()]).toEqual(expect.arrayContaining([join(home, "settings.json"), join(home, "sessions")]));
    expectPrivate(home);
    expectPrivate(join(project, ".zi"));
  });
});

describe("zi as a black box: stderr gets the same redaction as frames", () => {
  it("scrubs a key that the provider SDK prints with its own console.error, and what extensions print", async () => {
    const server = new OpenAICompatibleServer();
    servers.push(server);
    const baseUrl = await server.start();
    const home = tempDir("zi-e2e-stderr-");
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl, apiKey: PLANTED_KEY, models: [{ id: "m1" }] } } }));
    const extension = join(home, "noisy.mjs");
    writeFileSync(
      extension,
      [
        `console.error("error: ${PLANTED_KEY}");`,
        `console.warn("warn: ${PLANTED_KEY}");`,
        `console.log("log: ${PLANTED_KEY}");`,
        `process.stdout.write(Buffer.from("raw: ${PLANTED_KEY}\\n"));`,
        "export default () => {};",
      ].join("\n"),
    );
    server.enqueue({ type: "malformed_sse" });
    const zi = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--no-session", "--extension", extension] });
    await zi.call("m", "model.select", { provider: "local", id: "m1" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "hi", completionId: "c" });
    const idle = await zi.call("w", "session.await_idle", { completionId: "c" });
    expect(idle.result.completion.stopReason).toBe("error");
    expect((await zi.close()).code).toBe(0);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${PLANTED_KEY}`);
    // The SDK printed the reflected header, and the extension printed the key four ways: all scrubbed.
    expect(zi.stderr).toContain("Authorization: Bearer [redacted]");
    for (const prefix of ["error", "warn", "log", "raw"]) expect(zi.stderr).toContain(`${prefix}: [redacted]`);
    expect(zi.stderr).not.toContain(PLANTED_KEY);
    expect(JSON.stringify(zi.frames)).not.toContain(PLANTED_KEY);
  });
});
