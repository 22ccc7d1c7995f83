import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OpenAICompatibleServer } from "../support/openai-compatible-server.js";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const PLANTED_KEY = "sk-planted-9f8e7d6c5b4a-DO-NOT-LEAK";
const servers: OpenAICompatibleServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? (entry as any).path, entry.name));
}

describe("zi --mode rpc as a black box: a real provider over HTTP", () => {
  it("streams from an OpenAI-compatible endpoint, retries a 429, and never leaks the key or base URL", async () => {
    const server = new OpenAICompatibleServer();
    servers.push(server);
    const baseUrl = await server.start();
    const home = (await import("node:fs")).mkdtempSync(join((await import("node:os")).tmpdir(), "zi-e2e-provider-"));
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl, apiKey: PLANTED_KEY, models: [{ id: "m1", name: "Local M1" }] } } }));
    writeFileSync(join(home, "settings.json"), JSON.stringify({ retry: { maxAttempts: 2, baseDelayMs: 20, maxDelayMs: 40 } }));
    server.enqueue(
      { type: "http_error", status: 429, message: `rate limited for key ${PLANTED_KEY}` },
      { type: "text", chunks: ["Hello", " from", " local"] },
      { type: "http_error", status: 401, message: `invalid key ${PLANTED_KEY} at ${baseUrl}` },
    );
    const zi = new ZiProcess({ ziHome: home, args: ["--mode", "rpc"] });

    const listed = await zi.call("l", "model.list");
    const local = listed.result.models.find((m: any) => m.provider === "local");
    expect(local).toEqual({ provider: "local", id: "m1", name: "Local M1", reasoning: false, input: ["text"], contextWindow: expect.any(Number), maxTokens: expect.any(Number), configured: true });
    expect((await zi.call("m", "model.select", { provider: "local", id: "m1" })).result.model).toMatchObject({ provider: "local", id: "m1" });

    await zi.call("p", "session.prompt", { delivery: "direct", text: "hi", completionId: "c1" });
    const idle = await zi.call("w", "session.await_idle", { completionId: "c1" });
    expect(idle.result.completion).toMatchObject({ text: "Hello from local", stopReason: "stop" });
    expect(zi.events("auto_retry_start")).toHaveLength(1);
    expect(zi.events("auto_retry_end")).toEqual([expect.objectContaining({ success: true })]);
    expect(server.requests[1].headers.authorization).toBe(`Bearer ${PLANTED_KEY}`);

    await zi.call("p2", "session.prompt", { delivery: "direct", text: "again", completionId: "c2" });
    const failed = await zi.call("w2", "session.await_idle", { completionId: "c2" });
    expect(failed.result.completion.stopReason).toBe("error");
    expect(failed.result.completion.errorMessage).toContain("[redacted]");
    expect((await zi.close()).code).toBe(0);

    const written = [JSON.stringify(zi.frames), zi.stderr, ...allFiles(join(home, "sessions")).map((file) => readFileSync(file, "utf8"))];
    const port = new URL(baseUrl).port;
    for (const text of written) {
      expect(text).not.toContain(PLANTED_KEY);
      expect(text).not.toContain(`127.0.0.1:${port}`);
    }
  });

  it("answers not_found for an unknown model and operation_failed for one without credentials", async () => {
    const zi = new ZiProcess();
    expect(await zi.call("u", "model.select", { provider: "nope", id: "x" })).toMatchObject({ ok: false, error: { code: "not_found", applied: "no" } });
    const listed = await zi.call("l", "model.list");
    const unconfigured = listed.result.models.find((m: any) => !m.configured);
    expect(unconfigured).toBeDefined();
    for (const model of listed.result.models) expect(Object.keys(model).sort()).toEqual(["configured", "contextWindow", "id", "input", "maxTokens", "name", "provider", "reasoning"]);
    const refused = await zi.call("n", "model.select", { provider: unconfigured.provider, id: unconfigured.id });
    expect(refused).toMatchObject({ ok: false, error: { code: "operation_failed", applied: "unknown" } });
    await zi.close();
  });
});

describe("zi --mode rpc as a black box: deliveries, thinking and paging", () => {
  it("reports started, joined, queued and rejects direct while running", async () => {
    const zi = new ZiProcess({ fauxScript: { responses: [{ text: "slow", delayMs: 800 }] } });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    expect((await zi.call("q", "session.prompt", { delivery: "follow_up", text: "later" })).result).toMatchObject({ admission: "queued" });
    expect((await zi.call("d", "session.prompt", { delivery: "direct", text: "first" })).result).toMatchObject({ admission: "started" });
    expect(await zi.call("d2", "session.prompt", { delivery: "direct", text: "again" })).toMatchObject({ ok: false, error: { code: "operation_failed" } });
    expect((await zi.call("s", "session.prompt", { delivery: "steer", text: "steer" })).result).toMatchObject({ admission: "joined" });
    expect((await zi.call("c", "session.prompt", { delivery: "continue", text: "" })).result).toMatchObject({ admission: "joined" });
    await zi.call("w", "session.await_idle");
    const state = await zi.call("st", "session.get_state");
    expect(state.result.queuedInputs).toEqual({ steering: [], followUp: [] });
    const users = (await zi.call("g", "session.get_messages")).result.messages.filter((m: any) => m.role === "user").map((m: any) => m.content[0].text);
    expect(users).toEqual(expect.arrayContaining(["first", "steer", "later"]));
    await zi.close();
  });

  it("session.interrupt discards queued steering and follow-up input: nothing of the cycle runs later", async () => {
    // The first reply waits an hour before its first token: only the interrupt ends it, so the queued
    // input is still queued when the interrupt arrives, however slow the machine.
    const zi = new ZiProcess({ fauxScript: { responses: [{ text: "never", delayMs: 3_600_000 }, { text: "after" }] } });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    expect((await zi.call("d", "session.prompt", { delivery: "direct", text: "first" })).result).toMatchObject({ admission: "started" });
    expect((await zi.call("s", "session.prompt", { delivery: "steer", text: "s1" })).result).toMatchObject({ admission: "joined" });
    expect((await zi.call("f", "session.prompt", { delivery: "follow_up", text: "f1" })).result).toMatchObject({ admission: "joined" });
    expect((await zi.call("st1", "session.get_state")).result.queuedInputs).toEqual({ steering: [{ text: "s1" }], followUp: [{ text: "f1" }] });

    expect(await zi.call("i", "session.interrupt")).toMatchObject({ ok: true, result: {} });
    const after = zi.frames.slice(zi.frames.findIndex((f) => f.id === "st1") + 1);
    const kinds = after.map((f) => (f.type === "session_event" ? f.event.type : `${f.type}:${f.id}`));
    expect(kinds.indexOf("queue_update")).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf("queue_update")).toBeLessThan(kinds.indexOf("agent_end"));
    expect(kinds.indexOf("agent_end")).toBeLessThan(kinds.indexOf("response:i"));
    expect(after.find((f) => f.event?.type === "queue_update").event).toEqual({ type: "queue_update", steering: [], followUp: [] });
    expect(after.find((f) => f.event?.type === "agent_end").event).toEqual({ type: "agent_end", reason: "interrupted" });
    expect((await zi.call("st2", "session.get_state")).result.queuedInputs).toEqual({ steering: [], followUp: [] });

    await zi.call("d2", "session.prompt", { delivery: "direct", text: "again" });
    await zi.call("w", "session.await_idle");
    const users = (await zi.call("g", "session.get_messages")).result.messages.filter((m: any) => m.role === "user").map((m: any) => m.content[0].text);
    expect(users).toEqual(["first", "again"]);
    expect(await zi.close()).toEqual({ code: 0, signal: null });
  });

  it("clamps a thinking level the model lacks and persists it by scope", async () => {
    const project = (await import("node:fs")).mkdtempSync(join((await import("node:os")).tmpdir(), "zi-e2e-project-"));
    const zi = new ZiProcess({ fauxScript: { responses: [] }, cwd: project });
    expect((await zi.call("t0", "thinking.list")).result).toEqual({ levels: ["off"], current: "off" });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    expect((await zi.call("t1", "thinking.list")).result.levels).toEqual(["off", "minimal", "low", "medium", "high"]);
    expect((await zi.call("t2", "thinking.select", { level: "xhigh", scope: "global" })).result).toEqual({ requested: "xhigh", effective: "high", persisted: "global" });
    expect(JSON.parse(readFileSync(join(zi.ziHome, "settings.json"), "utf8")).thinkingLevel).toBe("xhigh");
    expect((await zi.call("t3", "thinking.select", { level: "low", scope: "project" })).result).toEqual({ requested: "low", effective: "low", persisted: "project" });
    expect(JSON.parse(readFileSync(join(project, ".zi", "settings.json"), "utf8")).thinkingLevel).toBe("low");
    expect((await zi.call("t4", "thinking.select", { level: "medium" })).result.persisted).toBeNull();
    expect(zi.events("thinking_level_changed").map((e) => e.thinkingLevel)).toEqual(["high", "low", "medium"]);
    await zi.close();
  });

  it("pages messages with total and nextStart, and returns an empty outcome page", async () => {
    const zi = new ZiProcess();
    await zi.call("m", "model.select", { provider: "faux", id: "echo" });
    for (let i = 0; i < 3; i++) {
      await zi.call(`p${i}`, "session.prompt", { delivery: "direct", text: `m${i}` });
      await zi.call(`w${i}`, "session.await_idle");
    }
    const first = (await zi.call("g1", "session.get_messages", { limit: 4 })).result;
    expect(first).toMatchObject({ start: 0, total: 6, nextStart: 4 });
    expect(first.messages.map((m: any) => m.index)).toEqual([0, 1, 2, 3]);
    const second = (await zi.call("g2", "session.get_messages", { start: 4, limit: 4 })).result;
    expect(second).toMatchObject({ start: 4, total: 6, nextStart: null });
    expect(second.messages.map((m: any) => [m.index, m.role])).toEqual([[4, "user"], [5, "assistant"]]);
    expect((await zi.call("o", "session.get_outcomes")).result).toEqual({ start: 0, total: 0, nextStart: null, outcomes: [] });
    zi.request("bad", "session.get_messages", { limit: 101 });
    expect(await zi.waitFor((f) => f.id === "bad")).toMatchObject({ type: "protocol_error", error: { code: "invalid_request" } });
    await zi.close();
  });
});

describe("zi --mode rpc as a black box: page byte bound", () => {
  it("ends a message page early rather than pass 8 MiB of encoded messages", async () => {
    const zi = new ZiProcess();
    await zi.call("m", "model.select", { provider: "faux", id: "echo" });
    const text = "x".repeat(5 * 1024 * 1024);
    await zi.call("p", "session.prompt", { delivery: "direct", text });
    await zi.call("w", "session.await_idle", {}, 60000);
    const first = (await zi.call("g1", "session.get_messages", {}, 60000)).result;
    expect(first).toMatchObject({ start: 0, total: 2, nextStart: 1 });
    expect(first.messages.map((m: any) => m.role)).toEqual(["user"]);
    const second = (await zi.call("g2", "session.get_messages", { start: 1 }, 60000)).result;
    expect(second).toMatchObject({ start: 1, total: 2, nextStart: null });
    expect(second.messages[0].content[0].text).toBe(`Echo: ${text}`);
    await zi.close();
  }, 90000);
});

describe("zi --mode rpc as a black box: the journal on disk", () => {
  it("survives SIGKILL mid-run and resumes with --session FILE", async () => {
    const home = (await import("node:fs")).mkdtempSync(join((await import("node:os")).tmpdir(), "zi-e2e-journal-"));
    mkdirSync(join(home, "sessions"), { recursive: true });
    const script = { responses: [{ text: "one" }, { text: "two" }, { text: "never finished", delayMs: 10000 }] };
    const zi = new ZiProcess({ ziHome: home, args: ["--mode", "rpc"], fauxScript: script });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    for (const text of ["a", "b"]) {
      await zi.call(`p-${text}`, "session.prompt", { delivery: "direct", text });
      await zi.call(`w-${text}`, "session.await_idle");
    }
    await zi.call("p-c", "session.prompt", { delivery: "direct", text: "c" });
    await zi.waitFor((f) => f.type === "session_event" && f.event.type === "message_end" && f.event.message.role === "user" && f.event.message.content[0].text === "c");
    const before = (await zi.call("g", "session.get_messages")).result;
    zi.child.kill("SIGKILL");
    await zi.exited;

    const [file] = readdirSync(join(home, "sessions")).filter((name) => name.endsWith(".jsonl"));
    const resumed = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--session", join(home, "sessions", file)], fauxScript: script });
    const ready = await resumed.waitFor((f) => f.type === "ready");
    expect(ready.state.messageCount).toBe(before.total);
    const after = (await resumed.call("g", "session.get_messages")).result;
    expect(after.messages).toEqual(before.messages);
    expect(ready.state.model).toMatchObject({ type: "selected", provider: "faux", id: "scripted" });
    expect((await resumed.close()).code).toBe(0);
  });
});

describe("zi --mode rpc as a black box: built-in tools", () => {
  it("runs scripted tool calls in the session's directory and replaces the work plan", async () => {
    const project = (await import("node:fs")).mkdtempSync(join((await import("node:os")).tmpdir(), "zi-e2e-tools-"));
    const script = {
      responses: [
        {
          toolCalls: [
            { name: "write", arguments: { path: "notes/hello.txt", content: "hi there\n" } },
            { name: "update_plan", arguments: { steps: [{ title: "write a note", status: "completed" }, { title: "report", status: "in_progress" }] } },
            { name: "read", arguments: { path: "missing.txt" } },
          ],
        },
        { text: "done" },
      ],
    };
    const zi = new ZiProcess({ fauxScript: script, cwd: project });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "work", completionId: "t" });
    const idle = await zi.call("w", "session.await_idle", { completionId: "t" });
    expect(idle.result.completion.text).toBe("done");
    expect(readFileSync(join(project, "notes", "hello.txt"), "utf8")).toBe("hi there\n");
    const ends = zi.events("tool_execution_end");
    expect(ends.map((e) => [e.toolName, e.isError])).toEqual([["write", false], ["update_plan", false], ["read", true]]);
    expect(zi.events("work_plan_changed")).toEqual([
      { type: "work_plan_changed", workPlan: { revision: 1, steps: [{ title: "write a note", status: "completed" }, { title: "report", status: "in_progress" }] } },
    ]);
    expect((await zi.call("s", "session.get_state")).result.workPlan.revision).toBe(1);
    await zi.close();
  });
});
