import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Black-box helpers for tests that watch Zi's process and the processes its tools start (through /proc). */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True while the process exists and is not a zombie (an exited child nobody has reaped yet). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The state follows the command name, which is in parentheses and may hold spaces.
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Polls `condition` until it holds or `deadlineMs` passes; returns its last value. */
export async function waitFor(condition: () => boolean, deadlineMs = 5000): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > end) return false;
    await sleep(20);
  }
  return true;
}

/** A live process's resident memory and its peak since it started, in bytes (/proc/<pid>/status). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)![1]) * 1024;
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

/** The pid a tool wrote (`echo $$ > file`), once the line is complete. */
export async function pidFrom(file: string): Promise<number> {
  while (!existsSync(file) || !readFileSync(file, "utf8").endsWith("\n")) await sleep(20);
  return Number(readFileSync(file, "utf8"));
}

/** Whether `pid` has gone within `boundMs` (a bound on waiting, not a timing assertion). */
export function gone(pid: number, boundMs = 5000): Promise<boolean> {
  return waitFor(() => !isAlive(pid), boundMs);
}

/**
 * A scripted faux run that delegates two `worker` tasks, each running a `bash` that writes its pid
 * into a new file under `pidDir` and then execs `sleep 300`.
 */
export function twoSleepingWorkers(pidDir: string) {
  const sleeper = { name: "bash", arguments: { command: `echo $$ > "$(mktemp -p ${pidDir})"; exec sleep 300` } };
  return {
    responses: [
      { toolCalls: [{ name: "delegate", arguments: { tasks: [{ profile: "worker", task: "a" }, { profile: "worker", task: "b" }] } }] },
      { profile: "worker", toolCalls: [sleeper] },
      { profile: "worker", toolCalls: [sleeper] },
    ],
  };
}

/** The pids the `twoSleepingWorkers` shells wrote so far. */
export function writtenPids(pidDir: string): number[] {
  return readdirSync(pidDir)
    .map((name) => readFileSync(join(pidDir, name), "utf8"))
    .filter((text) => text.endsWith("\n"))
    .map(Number);
}
