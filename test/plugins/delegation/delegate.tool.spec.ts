import { describe, expect, it, jest } from "@jest/globals";
import type { AgentToolResult } from "../../../core/session/agent-tool.js";
import type { AgentProfile } from "../../../plugins/delegation/agent-profile.js";
import { builtinProfiles } from "../../../plugins/delegation/builtin-profiles.js";
import { DelegateTool } from "../../../plugins/delegation/delegate.tool.js";
import { DelegationProgress } from "../../../plugins/delegation/delegation-progress.js";
import { createCodingTools } from "../../../plugins/coding-tools/coding-tools.factory.js";
import { FakeChildSessions, until, type Behaviour } from "../../support/fake-child-sessions.js";

// A child without a tools list gets the built-in coding tools and its own update_plan.
const CODING = [...createCodingTools({ cwd: "/", logDir: "/" }).map((tool) => tool.name), "update_plan"];

function profiles(...extra: Partial<AgentProfile>[]): Map<string, AgentProfile> {
  const map = new Map(builtinProfiles().map((profile) => [profile.name, profile]));
  for (const profile of extra) {
    map.set(profile.name!, { description: `${profile.name} profile`, systemPrompt: `You are ${profile.name}.`, origin: "global", source: "test", ...profile } as AgentProfile);
  }
  return map;
}

const stubTool = (name: string) => ({ name, description: "an extension tool", parameters: {}, execute: async () => ({ content: [] }) });

function setup(behaviour: Behaviour, options: { depth?: number; extra?: Partial<AgentProfile>[]; parentTools?: string[] } = {}) {
  const children = new FakeChildSessions(behaviour);
  const entries: Record<string, any>[] = [];
  const host = { appendSubagentEntry: (data: Record<string, unknown>) => (entries.push(data), {} as never), getState: () => children.state };
  const tool = new DelegateTool({
    profiles: profiles(...(options.extra ?? [])),
    host,
    children,
    cwd: "/work/project",
    ziHome: "/home/u/.zi",
    logDir: "/home/u/.zi/logs",
    parentTools: () => (options.parentTools ?? ["lint"]).map(stubTool),
    depth: options.depth ?? 0,
  });
  const updates: AgentToolResult[] = [];
  const abort = new AbortController();
  const run = (args: Record<string, unknown>) => tool.execute(args, { signal: abort.signal, cwd: "/work/project", onUpdate: (partial) => updates.push(partial) });
  return { tool, children, entries, updates, abort, run };
}

const echo: Behaviour = (child) => {
  child.turn();
  child.end("completed", `done: ${child.task}`);
};
const text = (result: AgentToolResult) => (result.content[0] as { text: string }).text;

describe("the delegate tool", () => {
  it("lists every profile in its description and bounds the parallel form in its schema", () => {
    const { tool } = setup(echo, { extra: [{ name: "reviewer", description: "Reviews diffs." }] });
    expect(tool.name).toBe("delegate");
    expect(tool.description).toContain("- explore: Read-only investigation");
    expect(tool.description).toContain("- worker: General-purpose");
    expect(tool.description).toContain("- reviewer: Reviews diffs.");
    const properties = (tool.parameters as any).properties;
    expect(properties.tasks.maxItems).toBe(8);
    expect(properties.chain.maxItems).toBe(8);
    expect(properties.profile.enum).toEqual(["explore", "worker", "reviewer"]);
  });

  it("single form: runs one child with the profile's prompt and the parent's model, returns its text, journals start and end", async () => {
    const { children, entries, run } = setup((child) => {
      child.turn(["ls", "grep"]);
      child.turn();
      child.end("completed", "found it");
    });
    const result = await run({ profile: "explore", task: "find the README" });
    expect(result.isError).toBe(false);
    expect(text(result)).toBe("found it");
    const [child] = children.children;
    expect(child!.spec).toMatchObject({ agent: "explore", model: { provider: "faux", id: "echo" }, thinkingLevel: "off" });
    expect(child!.spec.systemPrompt).toContain("read-only exploration agent");
    expect(child!.task).toBe("find the README");
    expect(child!.closed).toBe(true);
    expect(entries).toEqual([
      {
        phase: "start", delegationId: expect.any(String), index: 0, profile: "explore", model: "faux/echo",
        task: "find the README", taskTruncated: false, childSessionId: "child-1", childJournal: null,
      },
      {
        phase: "end", delegationId: entries[0]!.delegationId, index: 0, profile: "explore", childSessionId: "child-1", status: "completed",
        turns: 2, toolCalls: 2, usage: { input: 20, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 30, cost: 1 },
        durationMs: expect.any(Number), result: "found it", resultTruncated: false,
      },
    ]);
    expect(result.details).toMatchObject({ form: "single", tasks: [{ index: 0, profile: "explore", status: "completed", turns: 2, toolCalls: 2 }] });
  });

  it("gives each child its own tools: explore read-only, worker the coding tools, never delegate unless named, never below depth 2", async () => {
    const extra = [{ name: "lead", description: "d", tools: ["delegate", "read", "lint", "nonexistent"] }];
    const parent = setup(echo, { extra });
    await parent.run({ tasks: [{ profile: "explore", task: "a" }, { profile: "worker", task: "b" }, { profile: "lead", task: "c" }] });
    const names = parent.children.children.map((child) => child.tools.map((tool) => tool.name));
    expect(names).toEqual([["read", "ls", "grep", "find"], CODING, ["delegate", "read", "lint"]]);
    const nested = setup(echo, { extra, depth: 1 });
    await nested.run({ profile: "lead", task: "c" });
    expect(nested.children.children[0]!.tools.map((tool) => tool.name)).toEqual(["read", "lint"]);
  });

  it("a profile names every tool of one MCP server with mcp__<server>__* (and a tool once, however often it is named)", async () => {
    const extra = [{ name: "gh", description: "d", tools: ["read", "mcp__github__*", "mcp__github__issue", "delegate*"] }];
    const parent = setup(echo, { extra, parentTools: ["lint", "mcp__github__issue", "mcp__github__pr", "mcp__githubx__y", "mcp__other__z"] });
    await parent.run({ profile: "gh", task: "a" });
    expect(parent.children.children[0]!.tools.map((tool) => tool.name)).toEqual(["read", "mcp__github__issue", "mcp__github__pr"]);
  });

  it.each([
    [{}, "exactly one form"],
    [{ profile: "explore", task: "a", tasks: [{ profile: "explore", task: "b" }] }, "exactly one form"],
    [{ profile: "nobody", task: "a" }, 'profile "nobody" is unknown; the profiles are: explore, worker'],
    [{ profile: "explore", task: "  " }, "task must be a non-empty string"],
    [{ tasks: [] }, "must be a non-empty array"],
    [{ chain: [{ profile: "worker" }] }, "chain[0].task must be a non-empty string"],
    [{ tasks: Array.from({ length: 9 }, () => ({ profile: "worker", task: "t" })) }, "has 9 tasks; at most 8"],
  ])("refuses %j with a message the model can read, starting no child", async (args, message) => {
    const { children, entries, run } = setup(echo);
    await expect(run(args)).rejects.toThrow(message);
    expect(children.children).toEqual([]);
    expect(entries).toEqual([]);
  });

  it("parallel form: 8 tasks, never more than 4 children running at once, results in task order", async () => {
    const gates: (() => void)[] = [];
    const { children, entries, run } = setup((child) => {
      gates.push(() => child.end("completed", `r ${child.task}`));
    });
    const tasks = Array.from({ length: 8 }, (_, i) => ({ profile: "worker", task: `t${i}` }));
    const result = run({ tasks });
    await until(() => gates.length === 4, "4 children started");
    expect(children.running).toBe(4);
    expect(children.children).toHaveLength(4);
    // Releasing the newest waiting child each time lets the next task start; the bound holds throughout.
    for (let released = 0; released < 8; released++) {
      await until(() => gates.length > 0, "a child waiting");
      expect(children.running).toBeLessThanOrEqual(4);
      gates.pop()!();
    }
    const done = await result;
    expect(children.maxRunning).toBe(4);
    expect(children.children).toHaveLength(8);
    expect(text(done)).toBe(tasks.map((task, i) => `### Task ${i + 1} (worker): completed\nr ${task.task}`).join("\n\n"));
    expect(entries.filter((entry) => entry.phase === "start")).toHaveLength(8);
    expect(entries.filter((entry) => entry.phase === "end").map((entry) => entry.status)).toEqual(Array(8).fill("completed"));
  });

  it("a failing child ends failed, the others go on", async () => {
    const { entries, run } = setup((child) => (child.task === "bad" ? child.end("failed", "", "provider exploded") : echo(child)));
    const result = await run({ tasks: [{ profile: "worker", task: "good" }, { profile: "worker", task: "bad" }, { profile: "explore", task: "fine" }] });
    expect(result.isError).toBe(false);
    expect(text(result)).toBe(
      "### Task 1 (worker): completed\ndone: good\n\n### Task 2 (worker): failed\n[failed: provider exploded]\n\n### Task 3 (explore): completed\ndone: fine",
    );
    const ends = entries.filter((entry) => entry.phase === "end");
    expect(ends.map((entry) => [entry.index, entry.status, entry.error])).toEqual(
      expect.arrayContaining([[0, "completed", undefined], [1, "failed", "provider exploded"], [2, "completed", undefined]]),
    );
  });

  it("a child whose session cannot be created (e.g. unknown model) ends failed with both entries", async () => {
    const { children, entries, run } = setup(echo);
    children.createError = new Error("unknown model nope/x");
    const result = await run({ profile: "worker", task: "t" });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("[failed: unknown model nope/x]");
    expect(entries.map((entry) => [entry.phase, entry.childSessionId, entry.status])).toEqual([["start", null, undefined], ["end", null, "failed"]]);
  });

  it("chain form: {previous} becomes the prior step's result; a step that does not complete stops the chain", async () => {
    const { children, entries, run } = setup((child) => (child.task.includes("FAIL") ? child.end("failed", "", "no") : echo(child)));
    const ok = await run({ chain: [{ profile: "explore", task: "first" }, { profile: "worker", task: "use {previous} and {previous}" }] });
    expect(children.children.map((child) => child.task)).toEqual(["first", "use done: first and done: first"]);
    expect(text(ok)).toContain("### Step 2 (worker): completed\ndone: use done: first and done: first");
    expect(entries[2]).toMatchObject({ phase: "start", index: 1, task: "use done: first and done: first" });

    const broken = setup((child) => (child.task.includes("FAIL") ? child.end("failed", "", "no") : echo(child)));
    const result = await broken.run({ chain: [{ profile: "worker", task: "FAIL" }, { profile: "worker", task: "{previous}" }] });
    expect(broken.children.children).toHaveLength(1);
    expect(text(result)).toBe("### Step 1 (worker): failed\n[failed: no]\n\n### Step 2 (worker): not started\n(not started)");
    expect(result.isError).toBe(true);
    expect((result.details as any).tasks[1]).toEqual({ index: 1, profile: "worker", status: "not_started" });
  });

  it("maxTurns: a child that wants another turn after its last allowed one is stopped with budget_exceeded", async () => {
    const { children, entries, run } = setup(
      (child) => {
        child.turn(["ls"]); // turn 1 called a tool: a second model call would follow
      },
      { extra: [{ name: "brief", maxTurns: 1 }] },
    );
    const result = await run({ profile: "brief", task: "t" });
    expect(children.children[0]!.interrupts).toBe(1);
    expect(text(result)).toBe("[budget_exceeded: maxTurns (1) reached]");
    expect(entries[1]).toMatchObject({ phase: "end", status: "budget_exceeded", turns: 1, toolCalls: 1, error: "maxTurns (1) reached" });
  });

  it("maxRuntimeSeconds: a child still running when its time is up is stopped with budget_exceeded", async () => {
    const { children, entries, run } = setup(() => undefined, { extra: [{ name: "quick", maxRuntimeSeconds: 0.01 }] });
    const result = await run({ profile: "quick", task: "t" });
    expect(children.children[0]!.interrupts).toBe(1);
    expect(entries[1]).toMatchObject({ status: "budget_exceeded", error: "maxRuntimeSeconds (0.01) reached" });
    expect(result.isError).toBe(true);
  });

  it("an interrupt stops every running child; queued tasks never start and leave no entries", async () => {
    const { children, entries, abort, run } = setup(() => undefined);
    const result = run({ tasks: Array.from({ length: 6 }, (_, i) => ({ profile: "worker", task: `t${i}` })) });
    await until(() => children.running === 4, "4 children running");
    abort.abort();
    const done = await result;
    expect(children.children).toHaveLength(4);
    expect(children.children.map((child) => [child.interrupts, child.closed])).toEqual(Array(4).fill([1, true]));
    expect(entries.filter((entry) => entry.phase === "end").map((entry) => entry.status)).toEqual(Array(4).fill("interrupted"));
    expect((done.details as any).tasks.map((task: any) => task.status)).toEqual([...Array(4).fill("interrupted"), "not_started", "not_started"]);
  });

  it("reports compact progress (status, turns, last tool), never the children's deltas", async () => {
    const { updates, run } = setup((child) => {
      child.emit({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "SECRET-DELTA" } });
      child.turn(["grep"]);
      child.end("completed", "ok");
    });
    await run({ profile: "explore", task: "t" });
    expect(updates.length).toBeGreaterThan(0);
    expect(JSON.stringify(updates)).not.toContain("SECRET-DELTA");
    expect(updates[0]!.details).toEqual({ delegationId: expect.any(String), tasks: [{ index: 0, profile: "explore", status: "running", turns: 0, lastTool: null }] });
  });
});

describe("delegation progress", () => {
  it("sends at most one update per interval, and the last change at the end of it", () => {
    jest.useFakeTimers();
    try {
      const sent: AgentToolResult[] = [];
      const progress = new DelegationProgress("d", [], (partial) => sent.push(partial), 250);
      for (let i = 0; i < 50; i++) progress.changed();
      expect(sent).toHaveLength(1);
      jest.advanceTimersByTime(249);
      expect(sent).toHaveLength(1);
      jest.advanceTimersByTime(1);
      expect(sent).toHaveLength(2);
      progress.changed();
      progress.stop();
      jest.advanceTimersByTime(1000);
      expect(sent).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
