import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Black-box helpers for tests that watch the processes Zi's tools start (through /proc). */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Running, or gone (a zombie has exited and only waits to be reaped). */
export function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[2] !== "Z";
  } catch {
    return false;
  }
}

/** The pid a tool wrote (`echo $$ > file`), once the line is complete. */
export async function pidFrom(file: string): Promise<number> {
  while (!existsSync(file) || !readFileSync(file, "utf8").endsWith("\n")) await sleep(20);
  return Number(readFileSync(file, "utf8"));
}

/** Whether `pid` has gone within `boundMs` (a bound on waiting, not a timing assertion). */
export async function gone(pid: number, boundMs = 5000): Promise<boolean> {
  for (const deadline = Date.now() + boundMs; running(pid) && Date.now() < deadline; ) await sleep(20);
  return !running(pid);
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
