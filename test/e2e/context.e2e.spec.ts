import { afterEach, describe, expect, it } from "@jest/globals";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { EnvironmentProbe } from "../../core/context/environment-probe.js";
import { OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { ZI_BIN, ZiProcess } from "../support/zi-process.js";

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
/** The first bytes of a JPEG, base64. */
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]).toString("base64");

/** A request's one answer: its response or its protocol_error. */
function answer(zi: ZiProcess, id: string, method: string, params: object): Promise<any> {
  zi.request(id, method, params);
  return zi.waitFor((frame) => (frame.type === "response" || frame.type === "protocol_error") && frame.id === id);
}

const servers: OpenAICompatibleServer[] = [];
afterEach(async () => {
  ZiProcess.killAll();
  for (const server of servers.splice(0)) await server.stop();
});

async function localProvider(): Promise<OpenAICompatibleServer> {
  const server = new OpenAICompatibleServer();
  servers.push(server);
  await server.start();
  return server;
}

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

/**
 * The scenario: a git repository with AGENTS.md at its root and in pkg/, a ZI_HOME with
 * AGENTS.md, APPEND_SYSTEM.md and one skill, and the local provider configured in models.json.
 */
function scenario(baseUrl: string) {
  const root = mkdtempSync(join(tmpdir(), "zi-e2e-context-"));
  const home = join(root, "home");
  const repo = join(root, "repo");
  const cwd = join(repo, "pkg", "sub");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  write(join(home, "AGENTS.md"), "GLOBAL-RULE: answer in English.\n");
  write(join(home, "APPEND_SYSTEM.md"), "APPENDED-RULE: sign every reply.\n");
  write(join(home, "skills", "release-notes", "SKILL.md"), "---\nname: release-notes\ndescription: Write release notes from the git log\n---\nSKILL-BODY-SECRET: never in the prompt\n");
  write(join(repo, "AGENTS.md"), "ROOT-RULE: run npm test before committing.\n");
  write(join(repo, "pkg", "AGENTS.md"), "PKG-RULE: pkg uses tabs.\n");
  const models = [
    { id: "vision", name: "Vision", input: ["text", "image"] },
    { id: "text-only", name: "Text only", input: ["text"] },
  ];
  write(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl, apiKey: "sk-local", models } } }));
  return { home, repo, cwd, env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home } };
}

function run(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ZI_BIN, ...args], { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const systemPromptOf = (body: Record<string, unknown> | undefined): string => {
  const messages = body?.messages as { role: string; content: unknown }[];
  const system = messages.find((message) => message.role === "system" || message.role === "developer");
  return String(system?.content);
};

describe("the system prompt a real provider receives", () => {
  it("an extension's onSystemPrompt hook adds to every run's prompt, read when the run starts (examples/extensions/open-tasks-prompt.ts)", async () => {
    const server = await localProvider();
    server.enqueue({ type: "text", chunks: ["one"] }, { type: "text", chunks: ["two"] });
    const { home, cwd, env } = scenario(server.baseUrl);
    const example = resolve("examples/extensions/open-tasks-prompt.ts");
    write(join(cwd, "TASKS.md"), "- [ ] FIRST-TASK\n- [x] done already\n");
    const printed = await run(["prompt", "--extension", example], cwd, env);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/# Open tasks \(TASKS\.md\)\n\n- \[ \] FIRST-TASK\n\nThese are the project's open tasks\. Pick one/);
    expect(printed.stdout).not.toContain("done already");

    const zi = new ZiProcess({ ziHome: home, cwd, env, args: ["--mode", "rpc", "--no-session", "--extension", example] });
    await zi.call("m", "model.select", { provider: "local", id: "vision" });
    await zi.call("p1", "session.prompt", { delivery: "direct", text: "go", completionId: "c1" });
    await zi.call("w1", "session.await_idle", { completionId: "c1" });
    write(join(cwd, "TASKS.md"), "- [ ] SECOND-TASK\n");
    await zi.call("p2", "session.prompt", { delivery: "direct", text: "again", completionId: "c2" });
    await zi.call("w2", "session.await_idle", { completionId: "c2" });
    const [first, second] = server.requests.map((request) => systemPromptOf(request.body));
    expect(first).toContain("FIRST-TASK");
    expect(second).toContain("SECOND-TASK");
    expect(second).not.toContain("FIRST-TASK");
    // Zi's own sections come first; the hook's text is last.
    expect(second!.indexOf("# Environment")).toBeLessThan(second!.indexOf("# Open tasks"));
    expect((await zi.close()).code).toBe(0);
  });

  it("zi --mode json from pkg/sub: the three AGENTS.md in order, the append file, cwd, date and the skill without its body; zi prompt prints exactly that", async () => {
    const server = await localProvider();
    server.enqueue({ type: "text", chunks: ["done"] });
    const { home, repo, cwd, env } = scenario(server.baseUrl);
    const before = EnvironmentProbe.localDate(new Date());
    const json = await run(["--mode", "json", "--no-session", "--model", "local/vision", "hello"], cwd, env);
    const after = EnvironmentProbe.localDate(new Date());
    expect({ code: json.code, stderr: json.stderr }).toEqual({ code: 0, stderr: "" });

    const prompt = systemPromptOf(server.requests[0]!.body);
    const order = ["GLOBAL-RULE", "ROOT-RULE", "PKG-RULE", "APPENDED-RULE"].map((marker) => prompt.indexOf(marker));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(prompt).toContain(`## ${join(home, "AGENTS.md")}`);
    expect(prompt).toContain(`## ${join(repo, "AGENTS.md")}`);
    expect(prompt).toContain(`## ${join(repo, "pkg", "AGENTS.md")}`);
    expect(prompt).toContain(`Working directory: ${cwd}`);
    expect([`Today's date: ${before}`, `Today's date: ${after}`].some((line) => prompt.includes(line))).toBe(true);
    expect(prompt).toContain(`Git repository: yes, root ${repo}`);
    expect(prompt).toContain("<name>release-notes</name>");
    expect(prompt).toContain("<description>Write release notes from the git log</description>");
    expect(prompt).toContain(`<location>${join(home, "skills", "release-notes", "SKILL.md")}</location>`);
    expect(prompt).not.toContain("SKILL-BODY-SECRET");
    // The tools the model is offered are listed, each on one line.
    for (const tool of ["read", "bash", "edit", "write", "grep", "find", "ls"]) expect(prompt).toMatch(new RegExp(`^- ${tool}: .+$`, "m"));

    // `zi prompt` in the same directory prints the very text the provider received (plus one newline).
    const printed = await run(["prompt"], cwd, env);
    expect({ code: printed.code, stderr: printed.stderr }).toEqual({ code: 0, stderr: "" });
    if (before === after) expect(printed.stdout).toBe(`${prompt}\n`);
  });

  it("zi prompt never hangs on a FIFO or /dev/zero in a context file's place: each is one stderr line, the rest still loads", async () => {
    const server = await localProvider();
    const { repo, cwd, env } = scenario(server.baseUrl);
    execFileSync("mkfifo", [join(cwd, "AGENTS.md")]);
    symlinkSync("/dev/zero", join(repo, "pkg", "CLAUDE.md"));
    rmSync(join(repo, "pkg", "AGENTS.md"));
    const printed = await run(["prompt"], cwd, env);
    expect(printed.code).toBe(0);
    // In walk order: pkg/ before pkg/sub/.
    expect(printed.stderr.split("\n").filter(Boolean)).toEqual([
      `zi: extension ${join(repo, "pkg", "CLAUDE.md")} was not loaded: is a character device, not a regular file`,
      `zi: extension ${join(cwd, "AGENTS.md")} was not loaded: is a FIFO, not a regular file`,
    ]);
    expect(printed.stdout).toContain("ROOT-RULE");
  });

  it("over RPC: session.get_context names what was loaded, and an untrusted project's skills are skipped with one line and one extension_error", async () => {
    const server = await localProvider();
    const { home, repo, cwd, env } = scenario(server.baseUrl);
    write(join(cwd, ".zi", "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: Deploy\n---\n");
    write(join(home, "skills", "broken", "SKILL.md"), "no front matter here\n");
    const zi = new ZiProcess({ ziHome: home, cwd, env, args: ["--mode", "rpc", "--no-session"] });
    const context = await zi.call("c", "session.get_context");
    expect(context.result).toMatchObject({
      cwd,
      gitRoot: repo,
      projectTrusted: false,
      contextFiles: [{ path: join(home, "AGENTS.md") }, { path: join(repo, "AGENTS.md") }, { path: join(repo, "pkg", "AGENTS.md") }],
      systemFiles: [{ path: join(home, "APPEND_SYSTEM.md"), role: "append" }],
      skills: [{ name: "release-notes", description: "Write release notes from the git log", path: join(home, "skills", "release-notes", "SKILL.md") }],
    });
    const errors = zi.events("extension_error");
    expect(errors.map((event) => event.extension).sort()).toEqual([join(cwd, ".zi", "skills"), join(home, "skills", "broken", "SKILL.md")].sort());
    expect(errors.find((event) => event.extension === join(cwd, ".zi", "skills")).error).toMatch(/skipped 1 project skill\(s\) \(deploy\): the project .* is not trusted/);
    expect(zi.stderr.split("\n").filter((line) => line.includes("broken"))).toHaveLength(1);
    expect((await zi.close()).code).toBe(0);
  });

  it("over RPC: one PNG in images reaches the provider as an image part, is journaled and paged; a mislabelled or a text-only model's image is refused before admission", async () => {
    const server = await localProvider();
    server.enqueue({ type: "text", chunks: ["a red pixel"] });
    const { home, cwd, env } = scenario(server.baseUrl);
    const zi = new ZiProcess({ ziHome: home, cwd, env, args: ["--mode", "rpc", "--no-session"] });
    const ready = await zi.waitFor((frame) => frame.type === "ready");
    expect(ready.limits).toMatchObject({ maxPromptImages: 16, maxPromptImageBytes: 6 * 1024 * 1024 });
    await zi.call("m", "model.select", { provider: "local", id: "vision" });

    const mislabelled = await answer(zi, "bad", "session.prompt", { delivery: "direct", text: "look", images: [{ type: "image", data: JPEG, mimeType: "image/png" }] });
    expect(mislabelled).toMatchObject({ type: "protocol_error", error: { code: "invalid_request", details: [{ field: "params.images.0.data", problem: "data is a JPEG image, not image/png" }] } });
    const notBase64 = await answer(zi, "bad2", "session.prompt", { delivery: "direct", text: "look", images: [{ type: "image", data: "data:image/png;base64,AAAA", mimeType: "image/png" }] });
    expect(notBase64.error.details[0].field).toBe("params.images.0.data");

    const prompt = await zi.call("p", "session.prompt", { delivery: "direct", text: "what is this?", completionId: "c", images: [{ type: "image", data: PNG, mimeType: "image/png" }] });
    expect(prompt.result).toMatchObject({ admission: "started" });
    const idle = await zi.call("w", "session.await_idle", { completionId: "c" });
    expect(idle.result.completion.text).toBe("a red pixel");
    expect(server.requests).toHaveLength(1);
    const user = (server.requests[0]!.body!.messages as { role: string; content: unknown }[]).find((message) => message.role === "user");
    expect(user!.content).toEqual([
      { type: "text", text: "what is this?" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
    const page = await zi.call("g", "session.get_messages");
    expect(page.result.messages[0]).toMatchObject({ role: "user", content: [{ type: "text", text: "what is this?" }, { type: "image", data: PNG, mimeType: "image/png" }] });

    const usage = await zi.call("u", "session.get_usage");
    expect(usage.result).toEqual({
      session: { input: 12, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 17, cost: 0, modelCalls: 1, toolCalls: 0 },
      run: { input: 12, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 17, cost: 0, modelCalls: 1, toolCalls: 0, active: false },
      children: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0, modelCalls: 0, toolCalls: 0, tasks: 0 },
    });

    await zi.call("m2", "model.select", { provider: "local", id: "text-only" });
    const refused = await answer(zi, "p2", "session.prompt", { delivery: "direct", text: "and this?", images: [{ type: "image", data: PNG, mimeType: "image/png" }] });
    expect(refused).toMatchObject({ type: "protocol_error", id: "p2", error: { code: "invalid_request", details: [{ field: "params.images", problem: expect.stringContaining("does not accept images") }] } });
    expect(server.requests).toHaveLength(1);
    expect((await zi.call("s", "session.get_state")).result.messageCount).toBe(2);
    expect((await zi.close()).code).toBe(0);
  });
});
