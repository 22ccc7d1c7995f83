import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MockActivityEnvironment } from "@temporalio/testing";
import { runZiTask } from "../../examples/temporal/zi-activity.js";
import type { ZiHeartbeat, ZiTask, ZiTaskResult } from "../../examples/temporal/zi-task.js";

const ZI = resolve("dist/bin/zi.js");
const homes: string[] = [];
const toolTurn = (n: number) => ({ toolCalls: [{ name: "bash", arguments: { command: `echo step-${n}` } }] });

/** A task in a fresh sandbox (cwd and ZI_HOME), with its own faux script. */
function task(responses: object[], extra: Partial<ZiTask> = {}): ZiTask {
  const base = mkdtempSync(join(tmpdir(), "zi-temporal-"));
  homes.push(base);
  const script = join(base, "script.json");
  writeFileSync(script, JSON.stringify({ responses }));
  return { taskId: "t1", prompt: "Do the task.", cwd: base, ziHome: base, model: "faux/scripted", ziArgs: ["--faux-script", script], ziPath: ZI, ...extra };
}

function scriptFor(sandbox: ZiTask, responses: object[]): ZiTask {
  const script = join(sandbox.ziHome, "script-2.json");
  writeFileSync(script, JSON.stringify({ responses }));
  return { ...sandbox, ziArgs: ["--faux-script", script] };
}

afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe("examples/temporal: the Zi activity under MockActivityEnvironment", () => {
  it("runs a session to idle, heartbeating on its events with the journal path, and enforces the budget", async () => {
    const env = new MockActivityEnvironment({ attempt: 1 });
    const beats: ZiHeartbeat[] = [];
    env.on("heartbeat", (details: ZiHeartbeat) => beats.push(details));
    const result: ZiTaskResult = await env.run(runZiTask, task([1, 2, 3, 4, 5].map(toolTurn), { budget: { maxTurns: 2 } }));
    expect(result).toMatchObject({ taskId: "t1", reason: "budget_exceeded", budget: { scope: "run", budget: "maxTurns", limit: 2 }, attempt: 1, modelCalls: 2 });
    expect(result.sessionFile).toMatch(/sessions\/.*\.jsonl$/);
    expect(beats.map((beat) => beat.event)).toEqual(expect.arrayContaining(["started", "agent_start", "tool_execution_end", "turn_end", "agent_end"]));
    expect(new Set(beats.map((beat) => beat.sessionFile))).toEqual(new Set([result.sessionFile]));
    expect(beats.at(-1)!.turns).toBe(2);
  });

  it("cancellation interrupts the session and the activity ends cancelled", async () => {
    const env = new MockActivityEnvironment({ attempt: 1 });
    let cancelled = false;
    env.on("heartbeat", (details: ZiHeartbeat) => {
      // The model call is waiting (delayMs): cancel as soon as the run has started.
      if (details.event === "agent_start" && !cancelled) {
        cancelled = true;
        env.cancel();
      }
    });
    await expect(env.run(runZiTask, task([{ text: "slow", delayMs: 60_000 }]))).rejects.toMatchObject({ name: "CancelledFailure" });
    expect(cancelled).toBe(true);
  });

  it("a retry resumes the journal named in the last heartbeat and finishes the task there", async () => {
    const first = task([toolTurn(1), { error: { message: "provider down", retryable: false } }]);
    const attempt1 = new MockActivityEnvironment({ attempt: 1 });
    let last: ZiHeartbeat | undefined;
    attempt1.on("heartbeat", (details: ZiHeartbeat) => (last = details));
    await expect(attempt1.run(runZiTask, first)).rejects.toMatchObject({ name: "ApplicationFailure", type: "ZiRunFailed" });
    expect(last?.sessionFile).toMatch(/\.jsonl$/);

    const attempt2 = new MockActivityEnvironment({ attempt: 2, heartbeatDetails: last });
    const result: ZiTaskResult = await attempt2.run(runZiTask, scriptFor(first, [toolTurn(2), { text: "Finished." }]));
    expect(result).toMatchObject({ reason: "completed", text: "Finished.", attempt: 2, sessionFile: last!.sessionFile });
    // The session's model calls count the first attempt's too (2 there, 2 here): the same journal.
    expect(result.modelCalls).toBe(4);
  });
});
