import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

/** The documented example, loaded exactly as an extension author would load it. */
const EXAMPLE = resolve("examples/extensions/project-notes.ts");

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

function sessionFile(home: string): string {
  const [file] = readdirSync(join(home, "sessions")).filter((name) => name.endsWith(".jsonl"));
  return join(home, "sessions", file);
}

describe("zi --mode rpc as a black box: extension commands", () => {
  it("lists and invokes the example's commands by exact name; feedback stays out of messages and journal", async () => {
    const zi = new ZiProcess({ args: ["--mode", "rpc", "--extension", EXAMPLE] });
    const listed = await zi.call("l", "command.list");
    expect(listed.result.commands).toEqual([
      { name: "note", description: expect.any(String), source: "cli" },
      { name: "plan", description: expect.any(String), source: "cli" },
      { name: "wait", description: expect.any(String), source: "cli" },
      { name: "stats", description: expect.any(String), source: "cli" },
    ]);

    const invoked = await zi.call("n", "command.invoke", { name: "note", arguments: "ship the docs" });
    expect(invoked).toMatchObject({ ok: true, result: { message: "Saved a note of 13 characters." } });
    expect(await zi.call("s", "command.invoke", { name: "stats" })).toMatchObject({ ok: true, result: { message: "0 runs finished; 1 messages." } });

    const messages = (await zi.call("g", "session.get_messages")).result;
    expect(messages.messages).toEqual([expect.objectContaining({ index: 0, role: "custom", customType: "project-notes.note", content: "Project note: ship the docs" })]);
    expect(JSON.stringify(messages)).not.toContain("Saved a note");
    expect(zi.events("entry_appended").map((e) => e.entry.type)).toEqual(["custom", "custom_message"]);

    for (const [id, name] of [["u", "nope"], ["slash", "/note"]]) {
      expect(await zi.call(id, "command.invoke", { name, arguments: "x" })).toMatchObject({ ok: false, error: { code: "not_found", applied: "no" } });
    }
    zi.request("long", "command.invoke", { name: "x".repeat(65) });
    expect(await zi.waitFor((f) => f.id === "long")).toMatchObject({ type: "protocol_error", error: { code: "invalid_request" } });

    expect((await zi.close()).code).toBe(0);
    const journal = readFileSync(sessionFile(zi.ziHome), "utf8");
    expect(journal).toContain("Project note: ship the docs");
    expect(journal).not.toContain("Saved a note");
    expect(journal).not.toContain("runs finished");
    // What the extension prints reaches stderr, never the protocol (the harness checked every stdout line).
    expect(zi.stderr).toContain("project-notes: console.log goes to stderr\n");
    expect(zi.stderr).toContain(`[${EXAMPLE}] loaded: commands note, plan, wait, stats; tool count_lines\n`);
  });

  it("refuses a command while a run is active, and interrupts a slow command", async () => {
    const zi = new ZiProcess({ args: ["--mode", "rpc", "--no-session", "--extension", EXAMPLE], fauxScript: { responses: [{ text: "slow reply", delayMs: 60000 }] } });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go" });
    const busy = await zi.call("busy", "command.invoke", { name: "stats" });
    expect(busy).toMatchObject({ ok: false, error: { code: "operation_failed", applied: "unknown" } });
    expect(busy.error.message).toContain("running");
    await zi.call("i1", "session.interrupt");
    await zi.call("w", "session.await_idle");

    zi.request("slow", "command.invoke", { name: "wait", arguments: "60000" });
    await zi.waitFor((f) => f.type === "session_event" && f.event.type === "activity_changed" && f.event.activity.type === "running" && f.sequence > zi.frames.find((g) => g.id === "w").sequence);
    const interrupted = await zi.call("i2", "session.interrupt");
    expect(interrupted).toMatchObject({ ok: true, result: {} });
    const slow = await zi.waitFor((f) => f.id === "slow");
    expect(slow).toMatchObject({ ok: false, error: { code: "operation_failed", message: 'command "wait" was interrupted', applied: "unknown" } });
    expect((await zi.call("st", "session.get_state")).result.activity).toEqual({ type: "idle" });
    expect(await zi.call("again", "command.invoke", { name: "wait", arguments: "1" })).toMatchObject({ ok: true, result: { message: "Waited 1 ms." } });
    expect((await zi.close()).code).toBe(0);
  });
});

describe("zi --mode rpc as a black box: extension tools and outcomes", () => {
  it("runs the example's tool from scripted calls: partial results, and outcomes paged like the live events", async () => {
    const project = tempDir("zi-e2e-ext-project-");
    mkdirSync(join(project, "src"));
    writeFileSync(join(project, "src", "a.txt"), "one\ntwo\n");
    writeFileSync(join(project, "src", "b.txt"), "three");
    const count = { name: "count_lines", arguments: { dir: "src" } };
    const script = { responses: [{ toolCalls: [count, count, count] }, { text: "counted" }] };
    const zi = new ZiProcess({ args: ["--mode", "rpc", "--no-session", "--extension", EXAMPLE], fauxScript: script, cwd: project });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "count", completionId: "c" });
    expect((await zi.call("w", "session.await_idle", { completionId: "c" })).result.completion.text).toBe("counted");

    const ends = zi.events("tool_execution_end");
    expect(ends.map((e) => [e.toolName, e.isError, e.result.content[0].text])).toEqual(Array(3).fill(["count_lines", false, "3 lines in 2 files."]));
    const updates = zi.events("tool_execution_update").filter((e) => e.toolCallId === ends[0].toolCallId);
    expect(updates.map((e) => e.partialResult.content[0].text)).toEqual(["Counted 1 of 2 files.", "Counted 2 of 2 files."]);

    const live = zi.events("operation_outcome").map((e) => e.outcome);
    expect(live).toHaveLength(3);
    expect(live[0]).toEqual({
      id: expect.any(String),
      parentId: expect.any(String),
      timestamp: expect.any(String),
      operationId: expect.any(String),
      capability: "project-notes",
      operation: "count_lines",
      result: "succeeded",
      durationMs: expect.any(Number),
      evidence: { dir: "src", files: 2, lines: 3 },
    });
    const journaled = zi.events("entry_appended").filter((e) => e.entry.type === "operation_outcome").map((e) => e.entry);
    expect(journaled.map(({ type: _type, ...fields }) => fields)).toEqual(live);

    // Tool results are not outcomes: only the extension's three recordOutcome calls are.
    const first = (await zi.call("o1", "session.get_outcomes", { limit: 2 })).result;
    expect(first).toMatchObject({ start: 0, total: 3, nextStart: 2 });
    const rest = (await zi.call("o2", "session.get_outcomes", { start: first.nextStart })).result;
    expect(rest).toMatchObject({ start: 2, total: 3, nextStart: null });
    const paged = [...first.outcomes, ...rest.outcomes];
    expect(paged.map((o: any) => o.index)).toEqual([0, 1, 2]);
    expect(paged.map(({ index: _index, ...outcome }: any) => outcome)).toEqual(live);
    await zi.close();
  });
});

describe("zi --mode rpc as a black box: broken extensions", () => {
  it("reports each broken extension once on stderr and as extension_error, and serves the good ones", async () => {
    const home = tempDir("zi-e2e-ext-home-");
    const project = tempDir("zi-e2e-ext-broken-");
    mkdirSync(join(home, "extensions"));
    writeFileSync(join(home, "extensions", "broken.ts"), 'const token: string = "";\nif (!token) throw new Error("DEPLOY_TOKEN is not set");\nexport default () => {};\n');
    mkdirSync(join(project, ".zi", "extensions"), { recursive: true });
    writeFileSync(join(project, ".zi", "extensions", "good.mjs"), 'export default (zi) => zi.registerCommand("hello", { handler: () => ({ message: "hi" }) });\n');
    writeFileSync(join(project, ".zi", "extensions", "takes-read.mjs"), 'export default (zi) => zi.registerTool({ name: "read", description: "mine", parameters: { type: "object" }, execute: async () => ({ content: [] }) });\n');
    const zi = new ZiProcess({ ziHome: home, cwd: project, args: ["--mode", "rpc", "--no-session", "--trust-project", "--extension", "missing-extension.ts"] });
    const listed = await zi.call("l", "command.list");
    expect(listed.result.commands).toEqual([{ name: "hello", source: "project" }]);

    const errors = zi.events("extension_error");
    expect(errors).toEqual([
      { type: "extension_error", extension: join(home, "extensions", "broken.ts"), error: "failed to load: DEPLOY_TOKEN is not set" },
      { type: "extension_error", extension: join(project, ".zi", "extensions", "takes-read.mjs"), error: 'duplicate tool "read": already registered by coding-tools' },
      { type: "extension_error", extension: join(project, "missing-extension.ts"), error: "no such file or directory" },
    ]);
    // The events come after ready and before the first response.
    expect(zi.frames.findIndex((f) => f.type === "session_event" && f.event.type === "extension_error")).toBe(1);
    expect(zi.frames.findIndex((f) => f.id === "l")).toBe(4);
    expect(await zi.call("h", "command.invoke", { name: "hello" })).toMatchObject({ ok: true, result: { message: "hi" } });
    expect((await zi.close()).code).toBe(0);
    const diagnostics = zi.stderr.split("\n").filter((line) => line.includes("was not loaded"));
    expect(diagnostics).toEqual([
      `zi: extension ${join(home, "extensions", "broken.ts")} was not loaded: failed to load: DEPLOY_TOKEN is not set`,
      `zi: extension ${join(project, ".zi", "extensions", "takes-read.mjs")} was not loaded: duplicate tool "read": already registered by coding-tools`,
      `zi: extension ${join(project, "missing-extension.ts")} was not loaded: no such file or directory`,
    ]);
  });
});

describe("zi --mode rpc as a black box: work plans", () => {
  it("replaces the plan from a command, plan.replace and update_plan, and a resumed session restores it", async () => {
    const home = tempDir("zi-e2e-ext-plan-");
    const args = ["--mode", "rpc", "--extension", EXAMPLE];
    const first = new ZiProcess({ ziHome: home, args });
    const byCommand = await first.call("c", "command.invoke", { name: "plan", arguments: "[x] read the issue\n[>] write the code\n[ ] test it" });
    expect(byCommand.result).toEqual({ message: "Work plan revision 1: 3 steps." });
    const replaced = await first.call("r", "plan.replace", { steps: [{ id: "code", title: "write the code", status: "completed" }, { title: "test it", status: "in_progress" }] });
    const plan = { revision: 2, steps: [{ id: "code", title: "write the code", status: "completed" }, { title: "test it", status: "in_progress" }] };
    expect(replaced.result).toEqual({ workPlan: plan });
    expect(first.events("work_plan_changed").map((e) => e.workPlan.revision)).toEqual([1, 2]);
    expect((await first.close()).code).toBe(0);

    const script = { responses: [{ toolCalls: [{ name: "update_plan", arguments: { steps: [{ title: "test it", status: "completed" }] } }] }, { text: "ok" }] };
    const resumed = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--session", sessionFile(home), "--extension", EXAMPLE], fauxScript: script });
    const ready = await resumed.waitFor((f) => f.type === "ready");
    expect(ready.state.workPlan).toEqual(plan);
    expect((await resumed.call("g", "plan.get")).result).toEqual({ workPlan: plan });
    await resumed.call("m", "model.select", { provider: "faux", id: "scripted" });
    await resumed.call("p", "session.prompt", { delivery: "direct", text: "finish" });
    await resumed.call("w", "session.await_idle");
    expect((await resumed.call("s", "session.get_state")).result.workPlan).toEqual({ revision: 3, steps: [{ title: "test it", status: "completed" }] });
    expect((await resumed.close()).code).toBe(0);
  });
});
