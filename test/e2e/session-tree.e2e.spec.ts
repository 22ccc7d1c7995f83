import { afterEach, describe, expect, it } from "@jest/globals";
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dumpDom } from "../support/headless-chromium.js";
import { OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { ZiProcess } from "../support/zi-process.js";

const PLANTED = `second prompt <script>document.documentElement.setAttribute("data-pwned","script")</script><img src="x" onerror="document.documentElement.setAttribute('data-pwned','img')">`;

const servers: OpenAICompatibleServer[] = [];
afterEach(async () => {
  ZiProcess.killAll();
  for (const server of servers.splice(0)) await server.stop();
});

async function setup(args: string[] = ["--mode", "rpc"]) {
  const server = new OpenAICompatibleServer();
  servers.push(server);
  await server.start();
  const root = mkdtempSync(join(tmpdir(), "zi-e2e-tree-"));
  const home = join(root, "home");
  const cwd = join(root, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: server.baseUrl, apiKey: "sk-local", models: [{ id: "m", name: "M", input: ["text"] }] } } }));
  writeFileSync(join(cwd, "a.txt"), "original\n");
  const zi = new ZiProcess({ ziHome: home, cwd, args });
  await zi.call("m", "model.select", { provider: "local", id: "m" });
  return { server, zi, cwd, home };
}

const texts = (body: Record<string, unknown> | undefined): string[] =>
  ((body?.messages ?? []) as { role: string; content: unknown }[])
    .filter((message) => message.role !== "system" && message.role !== "developer")
    .map((message) => {
      const content = typeof message.content === "string" ? message.content : (message.content as { text?: string }[]).map((part) => part.text ?? "").join("");
      return `${message.role}:${content}`;
    });

describe("sessions as a tree over RPC (issue 28)", () => {
  it("rewind with both restores a.txt and the model sees only the first exchange; fork copies it; list shows both; the HTML export runs nothing", async () => {
    const { server, zi, cwd } = await setup();
    server.enqueue(
      { type: "text", chunks: ["first answer"] },
      { type: "tool_call", name: "write", arguments: { path: "a.txt", content: "changed by the agent\n" } },
      { type: "text", chunks: ["wrote it"] },
      { type: "text", chunks: ["third answer"] },
    );
    await zi.call("p1", "session.prompt", { delivery: "direct", text: "first prompt" });
    await zi.call("w1", "session.await_idle", {});
    await zi.call("p2", "session.prompt", { delivery: "direct", text: PLANTED });
    await zi.call("w2", "session.await_idle", {});
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("changed by the agent\n");

    const tree = (await zi.call("t", "session.get_tree", {})).result;
    const firstAnswer = tree.entries.find((entry: any) => entry.role === "assistant" && entry.label === "first answer");
    expect(firstAnswer).toBeDefined();
    expect(tree.entries.some((entry: any) => entry.type === "file_checkpoint")).toBe(true);

    const rewind = await zi.call("r", "session.rewind", { entryId: firstAnswer.id, restore: "both" });
    expect(rewind.result).toMatchObject({ messageCount: 2, files: [{ path: join(cwd, "a.txt"), action: "restored" }] });
    expect(rewind.result.notCovered).toMatch(/bash/);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("original\n");
    expect(zi.events("leaf_changed").at(-1)).toMatchObject({ targetId: firstAnswer.id, messageCount: 2 });

    await zi.call("p3", "session.prompt", { delivery: "direct", text: "third prompt" });
    await zi.call("w3", "session.await_idle", {});
    expect(server.requests).toHaveLength(4);
    expect(texts(server.requests[3]!.body)).toEqual(["user:first prompt", "assistant:first answer", "user:third prompt"]);

    // The abandoned branch stays in the journal's tree.
    const after = (await zi.call("t2", "session.get_tree", {})).result;
    expect(after.entries.some((entry: any) => entry.role === "user" && entry.label.startsWith("second prompt"))).toBe(true);
    const exported = (await zi.call("x", "session.export", { format: "html" })).result;

    const original = (await zi.call("s", "session.get_state", {})).result.sessionId;
    const fork = (await zi.call("f", "session.fork", { entryId: firstAnswer.id })).result;
    expect(fork.sessionId).not.toBe(original);
    expect(zi.events("session_switched").at(-1)).toMatchObject({ reason: "fork", path: fork.path, state: { sessionId: fork.sessionId, messageCount: 2 } });
    const messages = (await zi.call("g", "session.get_messages", {})).result.messages;
    expect(messages.map((message: any) => message.role)).toEqual(["user", "assistant"]);
    expect(messages[0].content).toEqual([{ type: "text", text: "first prompt" }]);

    const listed = (await zi.call("l", "session.list", { scope: "all" })).result;
    expect(listed.sessions.map((session: any) => session.id).sort()).toEqual([original, fork.sessionId].sort());
    expect(listed.sessions.find((session: any) => session.id === original)).toMatchObject({ title: "first prompt", messageCount: 8 });
    expect(listed.sessions.find((session: any) => session.id === fork.sessionId)).toMatchObject({ title: "first prompt", messageCount: 2 });
    await zi.close();

    const page = await dumpDom(exported.path);
    expect(page.code).toBe(0);
    expect(page.dom).toContain("first prompt");
    expect(page.dom).toContain("third prompt");
    expect(page.dom).toContain("&lt;script&gt;document.documentElement.setAttribute");
    // Had either planted piece run, the root element would carry the attribute it sets.
    expect(/<html[^>]*>/.exec(page.dom)![0]).not.toContain("data-pwned");
    expect(page.log).not.toMatch(/CONSOLE|Refused to/);

    // `zi export JOURNAL OUT` writes the same page from the file alone.
    const out = join(cwd, "exported.html");
    const cli = new ZiProcess({ cwd, args: ["export", listed.sessions.find((session: any) => session.id === original).path, out] });
    expect((await cli.exited).code).toBe(0);
    expect(readFileSync(out, "utf8")).toContain("third prompt");
  }, 60_000);

  it("a rewind refuses, file by file, where someone changed a file since the agent did; force restores it", async () => {
    const { server, zi, cwd } = await setup();
    server.enqueue({ type: "text", chunks: ["first answer"] }, { type: "tool_call", name: "write", arguments: { path: "a.txt", content: "agent\n" } }, { type: "text", chunks: ["ok"] });
    await zi.call("p1", "session.prompt", { delivery: "direct", text: "first prompt" });
    await zi.call("w1", "session.await_idle", {});
    await zi.call("p2", "session.prompt", { delivery: "direct", text: "write it" });
    await zi.call("w2", "session.await_idle", {});
    writeFileSync(join(cwd, "a.txt"), "the user's own edit\n");
    const tree = (await zi.call("t", "session.get_tree", {})).result;
    const firstAnswer = tree.entries.find((entry: any) => entry.role === "assistant" && entry.label === "first answer");
    const refused = await zi.call("r1", "session.rewind", { entryId: firstAnswer.id, restore: "both" });
    expect(refused).toMatchObject({ ok: false, error: { code: "operation_failed" } });
    expect(refused.error.message).toBe(`rewind refused, nothing was changed (force restores changed files anyway): ${join(cwd, "a.txt")}: it was changed since Zi's tools last wrote it`);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("the user's own edit\n");
    expect((await zi.call("s", "session.get_state", {})).result.messageCount).toBe(6); // the conversation did not move either
    const forced = await zi.call("r2", "session.rewind", { entryId: firstAnswer.id, restore: "files", force: true });
    expect(forced.result.files).toEqual([{ path: join(cwd, "a.txt"), action: "restored" }]);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("original\n");
    expect(await zi.call("n", "session.navigate", { entryId: "nope" })).toMatchObject({ ok: false, error: { code: "not_found" } });
    await zi.close();
  }, 60_000);

  it("a rewind interrupted between its begin and end entries is finished when the journal is opened again", async () => {
    const { server, zi, cwd, home } = await setup();
    server.enqueue({ type: "tool_call", name: "write", arguments: { path: "a.txt", content: "agent\n" } }, { type: "text", chunks: ["ok"] });
    await zi.call("p1", "session.prompt", { delivery: "direct", text: "write it" });
    await zi.call("w1", "session.await_idle", {});
    const file = (await zi.call("l", "session.list", {})).result.sessions[0].path;
    const first = (await zi.call("t", "session.get_tree", {})).result.entries.find((entry: any) => entry.role === "user");
    await zi.close();
    // What a SIGKILL right after the begin entry leaves: the entry on disk, the files not yet written.
    const sha = (text: string) => createHash("sha256").update(text).digest("hex");
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const last = JSON.parse(lines.at(-1)!).id;
    const begin = { type: "rewind", id: "crash001", parentId: last, timestamp: new Date().toISOString(), phase: "begin", targetId: first.id, files: [{ path: join(cwd, "a.txt"), restore: sha("original\n"), current: sha("agent\n") }] };
    appendFileSync(file, `${JSON.stringify(begin)}\n`);
    expect(existsSync(join(home, "checkpoints", sha("original\n")))).toBe(true);
    const resumed = new ZiProcess({ ziHome: home, cwd, args: ["--mode", "rpc", "--session", file] });
    await resumed.waitFor((frame) => frame.type === "ready");
    expect(resumed.stderr).toContain(`finished an interrupted rewind to ${first.id}`);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("original\n");
    const ended = JSON.parse(readFileSync(file, "utf8").trimEnd().split("\n").at(-1)!);
    expect(ended).toMatchObject({ type: "rewind", phase: "end", targetId: first.id, parentId: "crash001" });
    await resumed.close();
  }, 60_000);

  it("SIGKILL right after a navigate or a fork was announced loses neither: the resumed journal is at the new leaf, the fork is whole", async () => {
    const { server, zi, cwd, home } = await setup();
    server.enqueue({ type: "text", chunks: ["first answer"] }, { type: "text", chunks: ["second answer"] });
    await zi.call("p1", "session.prompt", { delivery: "direct", text: "first prompt" });
    await zi.call("w1", "session.await_idle", {});
    await zi.call("p2", "session.prompt", { delivery: "direct", text: "second prompt" });
    await zi.call("w2", "session.await_idle", {});
    const file = (await zi.call("l", "session.list", {})).result.sessions[0].path;
    const firstAnswer = (await zi.call("t", "session.get_tree", {})).result.entries.find((entry: any) => entry.label === "first answer");
    zi.request("n", "session.navigate", { entryId: firstAnswer.id });
    const moved = await zi.waitFor((frame) => frame.type === "session_event" && frame.event.type === "leaf_changed");
    zi.child.kill("SIGKILL");
    await zi.exited;

    const resumed = new ZiProcess({ ziHome: home, cwd, args: ["--mode", "rpc", "--session", file] });
    const ready = await resumed.waitFor((frame) => frame.type === "ready");
    expect(ready.state.messageCount).toBe(2);
    expect((await resumed.call("t", "session.get_tree", {})).result.leafId).toBe(moved.event.leafId);
    resumed.request("f", "session.fork", { entryId: firstAnswer.id });
    const switched = await resumed.waitFor((frame) => frame.type === "session_event" && frame.event.type === "session_switched");
    resumed.child.kill("SIGKILL");
    await resumed.exited;

    const fork = new ZiProcess({ ziHome: home, cwd, args: ["--mode", "rpc", "--session", switched.event.path] });
    const forkReady = await fork.waitFor((frame) => frame.type === "ready");
    expect(forkReady.state).toMatchObject({ sessionId: switched.event.state.sessionId, messageCount: 2 });
    expect(fork.stderr).toBe("");
    await fork.close();
  }, 60_000);

  it("session.new starts an empty session, session.switch by id comes back to the first; both are idle only", async () => {
    const { server, zi } = await setup();
    server.enqueue(
      { type: "tool_call", name: "write", arguments: { path: "b.txt", content: "x" } },
      { type: "text", chunks: ["denied, fine"] },
      { type: "text", chunks: ["in the new one"] },
    );
    const first = (await zi.call("s", "session.get_state", {})).result.sessionId;
    // A tool call waiting for a permission decision keeps the session running, for as long as the test needs.
    await zi.call("pol", "permission.set_policy", { default: "ask", rules: [], waitSeconds: 600 });
    await zi.call("p1", "session.prompt", { delivery: "direct", text: "first prompt" });
    const asked = await zi.waitFor((frame) => frame.type === "session_event" && frame.event.type === "permission_requested");
    const tree = (await zi.call("t", "session.get_tree", {})).result;
    const entryId = tree.entries.find((entry: any) => entry.role === "user").id;
    const calls = [
      ["n0", "session.new", {}],
      ["f0", "session.fork", { entryId }],
      ["v0", "session.navigate", { entryId }],
      ["r0", "session.rewind", { entryId, restore: "both" }],
      ["s0", "session.switch", { id: first }],
    ] as const;
    for (const [id, method, params] of calls) {
      expect(await zi.call(id, method, params)).toMatchObject({ ok: false, error: { code: "operation_failed", message: "session is running; wait until it is idle" } });
    }
    await zi.call("d", "permission.resolve", { requestId: asked.event.requestId, decision: "deny" });
    await zi.call("w1", "session.await_idle", {});
    const created = (await zi.call("n", "session.new", {})).result;
    expect(created).toMatchObject({ messageCount: 0 });
    expect(created.sessionId).not.toBe(first);
    expect(zi.events("session_switched").at(-1)).toMatchObject({ reason: "new", state: { sessionId: created.sessionId, messageCount: 0, model: { type: "selected", id: "m" } } });
    await zi.call("p2", "session.prompt", { delivery: "direct", text: "in the new session" });
    await zi.call("w2", "session.await_idle", {});
    // The new session's provider request holds only its own prompt.
    expect(JSON.stringify(server.requests[2]!.body)).not.toContain("first prompt");
    const back = (await zi.call("b", "session.switch", { id: first })).result;
    expect(back).toMatchObject({ sessionId: first, messageCount: 4 });
    expect(await zi.call("x", "session.switch", { id: "no-such-session" })).toMatchObject({ ok: false, error: { code: "not_found" } });
    const listed = (await zi.call("l", "session.list", {})).result.sessions.map((session: any) => session.id);
    expect(listed.sort()).toEqual([first, created.sessionId].sort());
    await zi.close();
  }, 60_000);
});

