import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { ZiProcess, ZI_BIN } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });
const select = (zi: ZiProcess) => zi.call("m", "model.select", { provider: "faux", id: "scripted" });
const toolResult = (zi: ZiProcess, toolCallId: string) =>
  zi.waitFor((f) => f.type === "session_event" && f.event.type === "tool_execution_end" && f.event.toolCallId === toolCallId).then((f) => f.event);
const requested = (zi: ZiProcess, nth: number) =>
  zi.waitFor((f) => f.type === "session_event" && f.event.type === "permission_requested" && zi.events("permission_requested").length >= nth).then(() => zi.events("permission_requested")[nth - 1]);

describe("permissions over RPC: the issue's scenario with the scripted model", () => {
  it("asks, denies with a message, allows once, and never runs a call still pending when stdin closes", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-perm-cwd-"));
    const zi = new ZiProcess({
      cwd,
      fauxScript: {
        responses: [
          bash("touch denied.txt"),
          { text: "understood" },
          bash("touch allowed.txt"),
          { text: "done" },
          bash("touch pending.txt"),
          { text: "never" },
        ],
      },
    });
    await select(zi);
    const set = await zi.call("p", "permission.set_policy", { default: "ask" });
    expect(set.result).toEqual({ policy: { default: "ask", rules: [] } });

    // 1. A call raises permission_requested, shows in permission.list and creates nothing.
    await zi.call("r1", "session.prompt", { delivery: "direct", text: "make a file", completionId: "c1" });
    const first = await requested(zi, 1);
    expect(first).toMatchObject({
      type: "permission_requested",
      toolName: "bash",
      args: { command: "touch denied.txt" },
      summary: { title: "Run touch denied.txt", kind: "execute", command: "touch denied.txt" },
      rule: { action: "ask", source: "default" },
      alwaysRules: [{ action: "allow", tool: "bash", command: "touch denied.txt" }],
    });
    const listed = await zi.call("l1", "permission.list");
    expect(listed.result.requests).toEqual([expect.objectContaining({ requestId: first.requestId, toolCallId: first.toolCallId })]);
    const state = await zi.call("s1", "session.get_state");
    expect(state.result.permissionRequests.map((r: any) => r.requestId)).toEqual([first.requestId]);
    expect(existsSync(join(cwd, "denied.txt"))).toBe(false);

    // 2. deny with a message: no file, the message in the tool result, the run goes on.
    const denied = await zi.call("d1", "permission.resolve", { requestId: first.requestId, decision: "deny", message: "not in this repo" });
    expect(denied.result).toEqual({});
    const deniedEnd = await toolResult(zi, first.toolCallId);
    expect(deniedEnd.isError).toBe(true);
    expect(deniedEnd.result.content[0].text).toContain("not in this repo");
    expect(zi.events("permission_resolved")[0]).toEqual({
      type: "permission_resolved",
      requestId: first.requestId,
      toolCallId: first.toolCallId,
      toolName: "bash",
      decision: "deny",
      decidedBy: "client",
      message: "not in this repo",
    });
    await zi.call("w1", "session.await_idle", { completionId: "c1" });
    expect(existsSync(join(cwd, "denied.txt"))).toBe(false);
    // Two resolves of one id: the second finds nothing.
    const again = await zi.call("d2", "permission.resolve", { requestId: first.requestId, decision: "allow_once" });
    expect(again.error.code).toBe("not_found");

    // 3. allow_once runs the next call.
    await zi.call("r2", "session.prompt", { delivery: "direct", text: "again", completionId: "c2" });
    const second = await requested(zi, 2);
    await zi.call("a2", "permission.resolve", { requestId: second.requestId, decision: "allow_once" });
    const allowedEnd = await toolResult(zi, second.toolCallId);
    expect(allowedEnd.isError).toBe(false);
    await zi.call("w2", "session.await_idle", { completionId: "c2" });
    expect(existsSync(join(cwd, "allowed.txt"))).toBe(true);

    // 4. A call still pending when stdin closes never runs, and Zi exits (within the shutdown bounds).
    await zi.call("r3", "session.prompt", { delivery: "direct", text: "once more", completionId: "c3" });
    const third = await requested(zi, 3);
    const exit = await zi.close();
    expect(exit.code).toBe(0);
    expect(zi.events("permission_resolved").at(-1)).toMatchObject({ requestId: third.requestId, decision: "deny", decidedBy: "disconnect" });
    expect(existsSync(join(cwd, "pending.txt"))).toBe(false);
  }, 30_000);
});

describe("permissions over RPC: interrupt, rules, allow_always, the journal", () => {
  it("session.interrupt denies the pending request (announced) and nothing after it runs", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-perm-cwd-"));
    const zi = new ZiProcess({
      cwd,
      fauxScript: { responses: [{ toolCalls: [{ name: "bash", arguments: { command: "touch one.txt" } }, { name: "bash", arguments: { command: "touch two.txt" } }] }] },
    });
    await select(zi);
    await zi.call("p", "permission.set_policy", { default: "ask" });
    await zi.call("r", "session.prompt", { delivery: "direct", text: "go" });
    const request = await requested(zi, 1);
    const interrupted = await zi.call("i", "session.interrupt");
    expect(interrupted.result).toEqual({});
    expect(zi.events("permission_resolved")).toEqual([expect.objectContaining({ requestId: request.requestId, decision: "deny", decidedBy: "interrupt" })]);
    // A resolve after the interrupt finds nothing; the second call never asked.
    expect((await zi.call("late", "permission.resolve", { requestId: request.requestId, decision: "allow_once" })).error.code).toBe("not_found");
    expect(zi.events("permission_requested")).toHaveLength(1);
    expect(zi.events("agent_end").at(-1)).toEqual({ type: "agent_end", reason: "interrupted" });
    const state = await zi.call("s", "session.get_state");
    expect(state.result.permissionRequests).toEqual([]);
    await zi.close();
    expect(existsSync(join(cwd, "one.txt")) || existsSync(join(cwd, "two.txt"))).toBe(false);
  }, 30_000);

  it("compound commands need every part allowed; allow_always adds a session rule; decisions are journaled", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-perm-cwd-"));
    const home = mkdtempSync(join(tmpdir(), "zi-perm-home-"));
    writeFileSync(join(home, "settings.json"), JSON.stringify({ permissions: { default: "ask", rules: [{ command: "touch", action: "allow" }, { command: "rm", action: "deny" }] } }));
    const zi = new ZiProcess({
      cwd,
      ziHome: home,
      args: ["--mode", "rpc"],
      fauxScript: {
        responses: [
          bash("touch a.txt"),
          bash("touch b.txt && rm a.txt"),
          bash("touch c.txt; echo $(touch d.txt) | wc -c"),
          bash("echo hi > /dev/null && echo more"),
          { text: "done" },
        ],
      },
    });
    await select(zi);
    await zi.call("r", "session.prompt", { delivery: "direct", text: "go", completionId: "c" });
    const asked = await requested(zi, 1);
    expect(asked.args).toEqual({ command: "touch c.txt; echo $(touch d.txt) | wc -c" });
    // `echo $(…)` is not read exactly (its words are the substitution's output): no rule can hold it.
    expect(asked.alwaysRules).toEqual([{ action: "allow", tool: "bash", command: "wc -c" }]);
    await zi.call("a", "permission.resolve", { requestId: asked.requestId, decision: "allow_always" });
    const again = await requested(zi, 2);
    expect(again.alwaysRules).toEqual([{ action: "allow", tool: "bash", command: "echo hi" }, { action: "allow", tool: "bash", command: "echo more" }]);
    await zi.call("b", "permission.resolve", { requestId: again.requestId, decision: "allow_once" });
    await zi.call("w", "session.await_idle", { completionId: "c" });
    const ends = zi.events("tool_execution_end");
    expect(ends.map((e) => e.isError)).toEqual([false, true, false, false]);
    expect(ends[1].result.content[0].text).toMatch(/Permission denied by the deny rule .*"rm".* from the global settings/);
    // `echo hi > /dev/null && echo more` asked again: no rule for `echo` was added.
    expect(zi.events("permission_requested")).toHaveLength(2);
    expect(existsSync(join(cwd, "a.txt"))).toBe(true);
    expect(existsSync(join(cwd, "c.txt")) && existsSync(join(cwd, "d.txt"))).toBe(true);
    await zi.close();
    const journal = readdirSync(join(home, "sessions"), { recursive: true }).map(String).find((name) => name.endsWith(".jsonl"))!;
    const entries = readFileSync(join(home, "sessions", journal), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const decisions = entries.filter((entry) => entry.type === "permission").map((entry) => entry.data);
    // The journal resumes with its permission entries, and a resumed session has no pending requests.
    const resumed = new ZiProcess({ cwd, ziHome: home, args: ["--mode", "rpc", "--session", join(home, "sessions", journal)] });
    const ready = await resumed.waitFor((frame) => frame.type === "ready");
    expect(ready.state.permissionRequests).toEqual([]);
    expect(ready.state.messageCount).toBeGreaterThan(0);
    expect(resumed.stderr).not.toContain("damaged");
    await resumed.close();
    expect(decisions.slice(0, 3)).toEqual([
      expect.objectContaining({ kind: "decision", toolName: "bash", decision: "allow", decidedBy: "rule", rule: { action: "allow", command: "touch", source: "global" } }),
      expect.objectContaining({ decision: "deny", decidedBy: "rule", rule: { action: "deny", command: "rm", source: "global" } }),
      expect.objectContaining({ decision: "allow", decidedBy: "client", clientDecision: "allow_always", requestId: asked.requestId, addedRules: asked.alwaysRules }),
    ]);
  }, 30_000);
});

describe("permissions over RPC: delegated children and signals", () => {
  it("a delegated child's call passes the same gate, its request naming delegationId, index and profile", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-perm-cwd-"));
    const home = mkdtempSync(join(tmpdir(), "zi-perm-home-"));
    mkdirSync(join(home, "agents"));
    writeFileSync(join(home, "agents", "maker.md"), "---\nname: maker\ndescription: makes files\ntools: [bash]\n---\nYou make files.\n");
    const zi = new ZiProcess({
      cwd,
      ziHome: home,
      fauxScript: {
        responses: [
          { toolCalls: [{ name: "delegate", arguments: { profile: "maker", task: "make a file" } }] },
          { profile: "maker", ...bash("touch child.txt") },
          { profile: "maker", text: "made" },
          { text: "finished" },
        ],
      },
    });
    await select(zi);
    await zi.call("p", "permission.set_policy", { default: "ask", rules: [{ tool: "delegate", action: "allow" }] });
    await zi.call("r", "session.prompt", { delivery: "direct", text: "delegate", completionId: "c" });
    const request = await requested(zi, 1);
    expect(request).toMatchObject({ toolName: "bash", args: { command: "touch child.txt" }, delegation: { delegationId: expect.any(String), index: 0, profile: "maker" } });
    expect(existsSync(join(cwd, "child.txt"))).toBe(false);
    const subagent = zi.events("entry_appended").find((event) => event.entry.type === "subagent");
    expect(request.delegation.delegationId).toBe(subagent.entry.data.delegationId);
    await zi.call("a", "permission.resolve", { requestId: request.requestId, decision: "allow_once" });
    const idle = await zi.call("w", "session.await_idle", { completionId: "c" });
    expect(idle.result.completion.text).toBe("finished");
    expect(existsSync(join(cwd, "child.txt"))).toBe(true);
    expect(zi.events("permission_resolved")).toEqual([expect.objectContaining({ requestId: request.requestId, decidedBy: "client", delegation: request.delegation })]);
    await zi.close();
  }, 30_000);

  it("SIGTERM denies the pending request (announced), nothing runs, Zi exits 143", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-perm-cwd-"));
    const zi = new ZiProcess({ cwd, fauxScript: { responses: [bash("touch signal.txt"), { text: "never" }] } });
    await select(zi);
    await zi.call("p", "permission.set_policy", { default: "ask" });
    await zi.call("r", "session.prompt", { delivery: "direct", text: "go" });
    const request = await requested(zi, 1);
    zi.child.kill("SIGTERM");
    const exit = await zi.exited;
    zi.assertWellFormed();
    expect(exit.code).toBe(143);
    expect(zi.events("permission_resolved")).toEqual([expect.objectContaining({ requestId: request.requestId, decision: "deny", decidedBy: "disconnect" })]);
    expect(existsSync(join(cwd, "signal.txt"))).toBe(false);
  }, 30_000);

  it("with events off, permission.list still shows what waits", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-perm-cwd-"));
    const zi = new ZiProcess({ cwd, fauxScript: { responses: [bash("touch quiet.txt"), { text: "done" }] } });
    await select(zi);
    await zi.call("p", "permission.set_policy", { default: "ask" });
    await zi.call("e", "connection.set_events", { mode: "none" });
    const quietFrom = zi.frames.length;
    await zi.call("r", "session.prompt", { delivery: "direct", text: "go", completionId: "c" });
    let requests: any[] = [];
    for (let attempt = 0; requests.length === 0; attempt++) {
      // No event tells us when the request is raised: poll the list, as such a client would.
      requests = (await zi.call(`l${attempt}`, "permission.list")).result.requests;
    }
    expect(requests).toEqual([expect.objectContaining({ toolName: "bash", args: { command: "touch quiet.txt" } })]);
    await zi.call("a", "permission.resolve", { requestId: requests[0].requestId, decision: "allow_once" });
    await zi.call("w", "session.await_idle", { completionId: "c" });
    expect(existsSync(join(cwd, "quiet.txt"))).toBe(true);
    expect(zi.frames.slice(quietFrom).filter((frame) => frame.type === "session_event")).toEqual([]);
    await zi.close();
  }, 30_000);
});

describe("the extension gate: examples/extensions/tool-guard.ts in the built zi", () => {
  it("denies a secret write, rewrites sudo away, allows ls without a question under ask", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-perm-guard-"));
    const zi = new ZiProcess({
      cwd,
      args: ["--mode", "rpc", "--no-session", "--extension", join(process.cwd(), "examples/extensions/tool-guard.ts")],
      fauxScript: {
        responses: [
          { toolCalls: [{ name: "write", arguments: { path: ".env", content: "KEY=1" } }] },
          { toolCalls: [{ name: "ls", arguments: {} }] },
          bash("sudo touch rewritten.txt"),
          { text: "done" },
        ],
      },
    });
    await select(zi);
    await zi.call("p", "permission.set_policy", { default: "ask", rules: [{ action: "allow", command: "touch" }] });
    await zi.call("r", "session.prompt", { delivery: "direct", text: "go", completionId: "c" });
    await zi.call("w", "session.await_idle", { completionId: "c" });
    const ends = zi.events("tool_execution_end");
    expect(ends.map((e) => [e.toolName, e.isError])).toEqual([["write", true], ["ls", false], ["bash", false]]);
    expect(ends[0].result.content[0].text).toBe("tool-guard: .env holds secrets; leave it alone.");
    expect(zi.events("permission_requested")).toEqual([]);
    expect(existsSync(join(cwd, ".env"))).toBe(false);
    expect(existsSync(join(cwd, "rewritten.txt"))).toBe(true);
    await zi.close();
  }, 30_000);
});

describe("permissions from the settings files", () => {
  it("an untrusted project may only tighten: its deny rule applies, its allow rule and looser default do not", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-perm-project-"));
    const home = mkdtempSync(join(tmpdir(), "zi-perm-home-"));
    writeFileSync(join(home, "settings.json"), JSON.stringify({ permissions: { default: "ask" } }));
    mkdirSync(join(cwd, ".zi"));
    writeFileSync(join(cwd, ".zi", "settings.json"), JSON.stringify({ permissions: { default: "allow", rules: [{ tool: "*", action: "allow" }, { command: "touch", action: "deny" }] } }));
    const zi = new ZiProcess({ cwd, ziHome: home, fauxScript: { responses: [bash("touch project.txt"), bash("echo asks"), { text: "done" }] } });
    await select(zi);
    const policy = await zi.call("p", "permission.set_policy", { default: "ask", rules: [{ command: "echo", action: "ask" }] });
    expect(policy.result.policy.rules).toEqual([
      { action: "deny", command: "touch", source: "project" },
      { action: "ask", command: "echo", source: "runtime" },
    ]);
    await zi.call("r", "session.prompt", { delivery: "direct", text: "go", completionId: "c" });
    const request = await requested(zi, 1);
    expect(request.args).toEqual({ command: "echo asks" });
    expect(request.rule).toEqual({ action: "ask", command: "echo", source: "runtime" });
    await zi.call("a", "permission.resolve", { requestId: request.requestId, decision: "allow_once" });
    await zi.call("w", "session.await_idle", { completionId: "c" });
    expect(zi.events("tool_execution_end")[0].result.content[0].text).toMatch(/deny rule .*"touch".* from the project settings/);
    expect(existsSync(join(cwd, "project.txt"))).toBe(false);
    expect(zi.stderr).toContain('zi: permissions: .zi/settings.json: 1 "allow" rule(s) ignored: an untrusted project may only tighten the policy');
    await zi.close();
  }, 30_000);
});

describe("permissions in --mode json", () => {
  it("denies an asking call at once with a clear message: nothing hangs, nothing runs", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-perm-json-"));
    const home = mkdtempSync(join(tmpdir(), "zi-perm-home-"));
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, "settings.json"), JSON.stringify({ permissions: { default: "ask" } }));
    const script = join(home, "script.json");
    writeFileSync(script, JSON.stringify({ responses: [bash("touch json.txt"), { text: "ok" }] }));
    const child = spawn(process.execPath, [ZI_BIN, "--mode", "json", "--no-session", "--faux-script", script, "--model", "faux/scripted", "go"], {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home },
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const events = stdout.trim().split("\n").map((line) => JSON.parse(line));
    const end = events.find((event) => event.type === "tool_execution_end");
    expect(end.isError).toBe(true);
    expect(end.result.content[0].text).toMatch(/nobody can answer in --mode json/);
    expect(events.some((event) => event.type === "permission_requested")).toBe(false);
    expect(existsSync(join(cwd, "json.txt"))).toBe(false);
  }, 30_000);
});
