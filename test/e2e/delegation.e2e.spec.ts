import { afterEach, describe, expect, it } from "@jest/globals";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const SETTLEMENT_MS = 5000;
const profile = (front: string, body = "You are a test sub-agent.") => `---\n${front}\n---\n${body}\n`;
const delegate = (args: object) => ({ toolCalls: [{ name: "delegate", arguments: args }] });

/** Prompts, waits for idle, and returns the completion text. */
async function run(zi: ZiProcess, text: string, id = "c1"): Promise<string> {
  await zi.call(`m-${id}`, "model.select", { provider: "faux", id: "scripted" });
  expect((await zi.call(`p-${id}`, "session.prompt", { delivery: "direct", text, completionId: id })).ok).toBe(true);
  const idle = await zi.call(`w-${id}`, "session.await_idle", { completionId: id }, 60_000);
  return idle.result.completion.text;
}

const subagentEntries = (zi: ZiProcess) => zi.events("entry_appended").filter((event) => event.entry.type === "subagent").map((event) => event.entry);
const toolEnds = (zi: ZiProcess) => zi.events("tool_execution_end").filter((event) => event.toolName === "delegate");
const journalLines = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));

describe("delegation through the built zi", () => {
  it("single form: a fresh child context, its own journal next to the parent's, start and end entries as entry_appended", async () => {
    const zi = new ZiProcess({
      args: ["--mode", "rpc"],
      fauxScript: { responses: [delegate({ profile: "explore", task: "Describe the project" }), { text: "All done." }] },
    });
    expect(await run(zi, "PARENT-ONLY-SECRET: delegate something")).toBe("All done.");
    expect(toolEnds(zi)).toEqual([expect.objectContaining({ isError: false, result: expect.objectContaining({ content: [{ type: "text", text: "Echo: Describe the project" }] }) })]);
    const [start, end] = subagentEntries(zi);
    expect(start.data).toEqual({
      phase: "start", delegationId: expect.any(String), index: 0, profile: "explore", model: "faux/scripted",
      task: "Describe the project", taskTruncated: false, childSessionId: expect.any(String), childJournal: expect.stringMatching(/^sessions\/.*\.jsonl$/),
    });
    expect(end.data).toEqual({
      phase: "end", delegationId: start.data.delegationId, index: 0, profile: "explore", childSessionId: start.data.childSessionId,
      status: "completed", turns: 1, toolCalls: 0, usage: expect.objectContaining({ totalTokens: expect.any(Number) }),
      durationMs: expect.any(Number), result: "Echo: Describe the project", resultTruncated: false,
    });
    // The child's journal: its own header, model, the task and its reply; nothing of the parent's.
    const child = journalLines(join(zi.ziHome, start.data.childJournal));
    expect(child[0]).toMatchObject({ type: "session", sessionId: start.data.childSessionId });
    const messages = child.filter((entry) => entry.type === "message").map((entry) => entry.message);
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(messages[0].content).toEqual([{ type: "text", text: "Describe the project" }]);
    expect(JSON.stringify(child)).not.toContain("PARENT-ONLY-SECRET");
    // The parent's journal holds both entries, as written.
    const parentFile = readdirSync(join(zi.ziHome, "sessions")).map((name) => join(zi.ziHome, "sessions", name)).find((file) => !file.endsWith(start.data.childJournal.slice(9)))!;
    expect(journalLines(parentFile).filter((entry) => entry.type === "subagent")).toEqual([start, end]);
    expect((await zi.close()).code).toBe(0);
  });

  it("parallel form: a ninth task is refused as a tool error; eight run with never more than four at once", async () => {
    const nine = Array.from({ length: 9 }, (_, i) => ({ profile: "worker", task: `task ${i}` }));
    const zi = new ZiProcess({
      fauxScript: {
        responses: [
          delegate({ tasks: nine }),
          delegate({ tasks: nine.slice(0, 8) }),
          ...nine.slice(0, 8).map((_, i) => ({ profile: "worker", delayMs: 100, text: `worker ${i} done` })),
          { text: "Fanned out." },
        ],
      },
    });
    expect(await run(zi, "fan out")).toBe("Fanned out.");
    const [refused, ran] = toolEnds(zi);
    expect(refused.isError).toBe(true);
    expect(refused.result.content[0].text).toMatch(/Validation failed for tool "delegate"[\s\S]*tasks/);
    expect(ran.isError).toBe(false);
    expect(ran.result.content[0].text.match(/### Task \d \(worker\): completed/g)).toHaveLength(8);
    const entries = subagentEntries(zi);
    expect(entries).toHaveLength(16);
    let running = 0;
    let most = 0;
    for (const entry of entries) {
      running += entry.data.phase === "start" ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(most).toBe(4);
    expect(new Set(entries.filter((entry) => entry.data.phase === "end").map((entry) => entry.data.status))).toEqual(new Set(["completed"]));
    // Progress is compact: per task status, turns and last tool, and nothing of the children's deltas.
    const updates = zi.events("tool_execution_update").filter((event) => event.toolName === "delegate");
    expect(updates.length).toBeGreaterThan(0);
    for (const update of updates) {
      expect(Object.keys(update.partialResult.details)).toEqual(["delegationId", "tasks"]);
      expect(update.partialResult.details.tasks.filter((task: any) => task.status === "running").length).toBeLessThanOrEqual(4);
    }
    await zi.close();
  });

  it("profiles by priority, budgets, a failing child beside good ones, and a chain with {previous}", async () => {
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-delegation-"));
    const project = join(home, "project");
    mkdirSync(join(home, "agents"), { recursive: true });
    mkdirSync(join(project, ".zi", "agents"), { recursive: true });
    writeFileSync(join(home, "agents", "echoer.md"), profile("name: echoer\ndescription: global echoer\nmodel: faux/scripted"));
    writeFileSync(join(project, ".zi", "agents", "echoer.md"), profile("name: echoer\ndescription: project echoer\nmodel: faux/echo"));
    writeFileSync(join(home, "agents", "brief.md"), profile("name: brief\ndescription: one turn\nmaxTurns: 1\ntools: [ls]"));
    writeFileSync(join(home, "agents", "slow.md"), profile("name: slow\ndescription: one second\nmaxRuntimeSeconds: 1"));
    writeFileSync(join(home, "agents", "failing.md"), profile("name: failing\ndescription: its model fails"));
    writeFileSync(join(home, "agents", "broken.md"), profile("name: broken\ndescription: d\nthinking: enormous"));
    const zi = new ZiProcess({
      ziHome: home,
      cwd: project,
      // Project profiles load only in a trusted project (docs/extensions.md).
      args: ["--mode", "rpc", "--no-session", "--trust-project"],
      fauxScript: {
        responses: [
          delegate({ tasks: [{ profile: "brief", task: "list" }, { profile: "slow", task: "wait" }, { profile: "failing", task: "x" }, { profile: "echoer", task: "hi" }] }),
          { profile: "brief", toolCalls: [{ name: "ls", arguments: {} }] },
          { profile: "slow", delayMs: 120_000 },
          { profile: "failing", error: { message: "model down" } },
          delegate({ chain: [{ profile: "worker", task: "first" }, { profile: "worker", task: "second got {previous}" }] }),
          { text: "finished" },
        ],
      },
    });
    expect(await run(zi, "go")).toBe("finished");
    const errors = zi.events("extension_error");
    expect(errors).toEqual([{ type: "extension_error", extension: join(home, "agents", "broken.md"), error: expect.stringContaining('field "thinking"') }]);
    expect(zi.stderr.split("\n").filter((line) => line.includes("broken.md"))).toHaveLength(1);
    const ends = new Map(subagentEntries(zi).filter((entry) => entry.data.phase === "end").map((entry) => [`${entry.data.profile}:${entry.data.index}`, entry.data]));
    expect(ends.get("brief:0")).toMatchObject({ status: "budget_exceeded", turns: 1, toolCalls: 1, error: "maxTurns (1) reached" });
    expect(ends.get("slow:1")).toMatchObject({ status: "budget_exceeded", error: "maxRuntimeSeconds (1) reached" });
    expect(ends.get("failing:2")).toMatchObject({ status: "failed", error: "model down" });
    expect(ends.get("echoer:3")).toMatchObject({ status: "completed", result: "Echo: hi" });
    const starts = subagentEntries(zi).filter((entry) => entry.data.phase === "start").map((entry) => entry.data);
    expect(starts.find((data) => data.profile === "echoer").model).toBe("faux/echo"); // the project's profile won
    expect(starts.filter((data) => data.profile === "worker").map((data) => data.task)).toEqual(["first", "second got Echo: first"]);
    expect(toolEnds(zi)[1].result.content[0].text).toBe(
      "### Step 1 (worker): completed\nEcho: first\n\n### Step 2 (worker): completed\nEcho: second got Echo: first",
    );
    await zi.close();
  });

  it("depth 2: a child whose profile names delegate runs a grandchild, whose entries go to the child's journal", async () => {
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-depth-"));
    mkdirSync(join(home, "agents"));
    writeFileSync(join(home, "agents", "lead.md"), profile("name: lead\ndescription: coordinates\ntools: [delegate, read]"));
    const zi = new ZiProcess({
      ziHome: home,
      args: ["--mode", "rpc"],
      fauxScript: {
        responses: [
          delegate({ profile: "lead", task: "coordinate" }),
          { profile: "lead", ...delegate({ profile: "explore", task: "look around" }) },
          { profile: "lead", text: "lead done" },
          { text: "top done" },
        ],
      },
    });
    expect(await run(zi, "go")).toBe("top done");
    const entries = subagentEntries(zi);
    expect(entries.map((entry) => `${entry.data.phase} ${entry.data.profile}`)).toEqual(["start lead", "end lead"]);
    expect(entries[1].data).toMatchObject({ status: "completed", result: "lead done", toolCalls: 1 });
    const lead = journalLines(join(home, entries[0].data.childJournal));
    const nested = lead.filter((entry) => entry.type === "subagent").map((entry) => entry.data);
    expect(nested.map((data) => `${data.phase} ${data.profile}`)).toEqual(["start explore", "end explore"]);
    expect(nested[1]).toMatchObject({ status: "completed", result: "Echo: look around" });
    const grandchild = journalLines(join(home, nested[0].childJournal));
    expect(grandchild[0]).toMatchObject({ type: "session", sessionId: nested[0].childSessionId });
    await zi.close();
  });

  it("session.interrupt stops every running child within the settlement, their bash processes included", async () => {
    const pids = mkdtempSync(join(tmpdir(), "zi-e2e-pids-"));
    const sleeper = { name: "bash", arguments: { command: `echo $$ > "$(mktemp -p ${pids})"; exec sleep 300` } };
    const zi = new ZiProcess({
      fauxScript: {
        responses: [
          delegate({ tasks: [{ profile: "worker", task: "a" }, { profile: "worker", task: "b" }] }),
          { profile: "worker", toolCalls: [sleeper] },
          { profile: "worker", toolCalls: [sleeper] },
        ],
      },
    });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go" });
    const written = () => readdirSync(pids).map((name) => readFileSync(join(pids, name), "utf8").trim()).filter((pid) => pid !== "");
    for (const deadline = Date.now() + 30_000; written().length < 2; ) {
      if (Date.now() > deadline) throw new Error(`the children's bash never started; stderr:\n${zi.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const sleeping = written().map(Number);
    expect((await zi.call("i", "session.interrupt")).ok).toBe(true);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // The spec's settlement bound, not a speed assertion: every child's process must be gone by then.
    for (const deadline = Date.now() + SETTLEMENT_MS; sleeping.some(alive) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sleeping.filter(alive)).toEqual([]);
    await zi.waitFor((frame) => frame.type === "session_event" && frame.event.type === "agent_end");
    await zi.waitFor(() => subagentEntries(zi).filter((entry) => entry.data.phase === "end").length === 2);
    expect(subagentEntries(zi).filter((entry) => entry.data.phase === "end").map((entry) => entry.data.status)).toEqual(["interrupted", "interrupted"]);
    expect(zi.events("agent_end")).toEqual([{ type: "agent_end", reason: "interrupted" }]);
    await zi.close();
  });

  it("resuming with --session keeps the entries and messages as they were and restarts no child", async () => {
    const first = new ZiProcess({ args: ["--mode", "rpc"], fauxScript: { responses: [delegate({ profile: "worker", task: "w" }), { text: "ok" }] } });
    expect(await run(first, "go")).toBe("ok");
    const messages = (await first.call("g", "session.get_messages")).result;
    const [start] = subagentEntries(first);
    await first.close();
    const sessions = join(first.ziHome, "sessions");
    const files = readdirSync(sessions).sort();
    expect(files).toHaveLength(2);
    const parentFile = join(sessions, files.find((name) => !start.data.childJournal.endsWith(name))!);
    const before = readFileSync(parentFile, "utf8");

    const resumed = new ZiProcess({ ziHome: first.ziHome, args: ["--mode", "rpc", "--session", parentFile], fauxScript: { responses: [] } });
    expect((await resumed.call("g", "session.get_messages")).result).toEqual(messages);
    expect((await resumed.call("s", "session.get_state")).result.activity).toEqual({ type: "idle" });
    await resumed.close();
    expect(readdirSync(sessions).sort()).toEqual(files);
    expect(readFileSync(parentFile, "utf8")).toBe(before);
    expect(journalLines(parentFile).filter((entry) => entry.type === "subagent").map((entry) => entry.data.phase)).toEqual(["start", "end"]);
    expect(subagentEntries(resumed)).toEqual([]);
  });

  it("the README's delegation example works as written, offline and without keys", async () => {
    const readme = readFileSync(resolve("README.md"), "utf8");
    const block = /<!-- delegation-example -->\n\s*```sh\n([\s\S]*?)\n\s*```/.exec(readme);
    expect(block).not.toBeNull();
    // Rendered Markdown drops the list item's indentation; so does a reader's copy.
    const script = block![1]!.split("\n").map((line) => line.replace(/^ {3}/, "")).join("\n");
    const env = { PATH: process.env.PATH ?? "", HOME: mkdtempSync(join(tmpdir(), "zi-readme-")) };
    const { stdout } = await promisify(execFile)("bash", ["-c", script], { cwd: resolve("."), env, timeout: 60_000 });
    const lines = stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(lines.map((event) => event.type === "agent_end" ? `end ${event.reason}` : `${event.entry.data.phase} ${event.entry.data.profile}`).sort()).toEqual(
      ["end completed", "end explore", "end worker", "start explore", "start worker"],
    );
    const results = lines.filter((event) => event.entry?.data.phase === "end").map((event) => event.entry.data.result).sort();
    expect(results).toEqual(["Echo: Say hello", "The docs are in docs/."]);
  });
});
