import { afterEach, describe, expect, it } from "@jest/globals";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gone, isAlive, pidFrom, sleep, twoSleepingWorkers, writtenPids } from "../support/tool-processes.js";
import { ZiProcess } from "../support/zi-process.js";

// Issue 16, items 1 and 10: Zi kills only process groups that are still its tools', and tool
// processes die with Zi wherever Linux lets it arrange that (docs/coding-tools.md says how far).

const strays: ChildProcess[] = [];
afterEach(() => {
  ZiProcess.killAll();
  for (const child of strays.splice(0)) child.kill("SIGKILL");
});

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

const NS_LAST_PID = "/proc/sys/kernel/ns_last_pid";
/** Root in its pid namespace can choose the next pid, which is how this test reproduces pid reuse. */
const canChoosePid = (() => {
  try {
    writeFileSync(NS_LAST_PID, readFileSync(NS_LAST_PID, "utf8"));
    return true;
  } catch {
    return false;
  }
})();

/** An unrelated process leading its own group (detached: setsid) whose pid, and so pgid, is `pid`. */
async function unrelatedGroupWithId(pid: number): Promise<ChildProcess> {
  for (let attempt = 0; attempt < 200; attempt++) {
    writeFileSync(NS_LAST_PID, String(pid - 1));
    const child = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });
    strays.push(child);
    if (child.pid === pid) return child;
    child.kill("SIGKILL");
    await sleep(10);
  }
  throw new Error(`could not get pid ${pid} for the unrelated process (other processes kept taking it)`);
}

async function bashThenIdle(zi: ZiProcess): Promise<void> {
  await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
  await zi.call("p", "session.prompt", { delivery: "direct", text: "go" });
  await zi.call("w", "session.await_idle", {}, 30_000);
  expect(zi.events("tool_execution_end").map((event) => event.toolName)).toEqual(["bash"]);
}

describe("the exit sweep kills only groups that are still the tools'", () => {
  (canChoosePid ? it : it.skip)("a background job's group ends, its id is reused by an unrelated group: SIGTERM leaves that group alone", async () => {
    const dir = tempDir("zi-e2e-pid-reuse-");
    const command = `echo $$ > ${dir}/shell; sleep 1 >/dev/null 2>&1 & echo $! > ${dir}/job`;
    const zi = new ZiProcess({ ziHome: dir, fauxScript: { responses: [{ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "ok" }] } });
    await bashThenIdle(zi);
    const shell = await pidFrom(join(dir, "shell"));
    const job = await pidFrom(join(dir, "job"));
    // The job (the group's last member) ends on its own; the group's id is free again.
    expect(await gone(job)).toBe(true);
    const unrelated = await unrelatedGroupWithId(shell);
    zi.child.kill("SIGTERM");
    expect(await zi.exited).toEqual({ code: 143, signal: null });
    // Zi's exit handler ran before the exit was reported: a kill it sent would already have landed.
    await sleep(200);
    expect(isAlive(unrelated.pid!)).toBe(true);
    zi.assertWellFormed();
  }, 30_000);

  it("a background job still running when Zi exits is killed (its group is still the tool's)", async () => {
    const dir = tempDir("zi-e2e-bg-job-");
    const command = `sleep 300 >/dev/null 2>&1 & echo $! > ${dir}/job`;
    const zi = new ZiProcess({ ziHome: dir, fauxScript: { responses: [{ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "ok" }] } });
    await bashThenIdle(zi);
    const job = await pidFrom(join(dir, "job"));
    expect(isAlive(job)).toBe(true);
    zi.child.kill("SIGTERM");
    expect(await zi.exited).toEqual({ code: 143, signal: null });
    expect(await gone(job)).toBe(true);
  }, 30_000);
});

describe("tool processes do not outlive Zi", () => {
  it("a job moved to its own session with setsid (its shell still waiting) is killed at SIGTERM", async () => {
    const dir = tempDir("zi-e2e-setsid-");
    const command = `setsid sleep 300 & echo $! > ${dir}/job; wait`;
    const zi = new ZiProcess({ ziHome: dir, fauxScript: { responses: [{ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "ok" }] } });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go" });
    const job = await pidFrom(join(dir, "job"));
    // setsid(1) execs sleep in a new session: it is no longer in the tool's process group.
    for (let i = 0; i < 100 && readFileSync(`/proc/${job}/stat`, "utf8").split(" ")[5] !== String(job); i++) await sleep(20);
    expect(readFileSync(`/proc/${job}/stat`, "utf8").split(" ")[5]).toBe(String(job)); // its own session
    zi.child.kill("SIGTERM");
    expect(await zi.exited).toEqual({ code: 143, signal: null });
    expect(await gone(job)).toBe(true);
  }, 30_000);

  it("SIGKILL of Zi: every delegated child's shell (and the command it execs) gets SIGKILL from the kernel (setpriv --pdeathsig)", async () => {
    const pids = tempDir("zi-e2e-pdeathsig-");
    const zi = new ZiProcess({ fauxScript: twoSleepingWorkers(pids) });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go" });
    while (writtenPids(pids).length < 2) await sleep(20);
    const sleeping = writtenPids(pids);
    // exec'd: the pid now runs sleep
    for (const pid of sleeping) while (!readFileSync(`/proc/${pid}/stat`, "utf8").includes("(sleep)")) await sleep(20);
    zi.child.kill("SIGKILL");
    expect(await zi.exited).toEqual({ code: null, signal: "SIGKILL" });
    for (const pid of sleeping) expect(await gone(pid)).toBe(true);
  }, 30_000);
});
