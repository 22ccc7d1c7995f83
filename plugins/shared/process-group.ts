import { type ChildProcess, spawnSync } from "node:child_process";
import { type ProcEntry, ProcTable } from "./proc-table.js";

/** Groups that may still have members of Zi's; each is checked, then killed, if Zi exits first. */
const live = new Set<ProcessGroup>();
let exitSweepInstalled = false;

/**
 * Zi's shutdown bounds its wait for a run to settle, and an interrupted tool call settles before its
 * process tree is gone (a child ignoring SIGTERM gets SIGKILL only after the grace period). So every
 * group still tracked when the process exits gets SIGKILL from the 'exit' handler, which runs
 * synchronously on every exit path of Zi (process.exit after shutdown, and the end of the loop),
 * each only after checking that what it kills is still Zi's.
 */
function installExitSweep(): void {
  if (exitSweepInstalled) return;
  exitSweepInstalled = true;
  process.on("exit", () => {
    for (const group of live) group.signal("SIGKILL");
  });
}

let pdeathsigPrefix: readonly string[] | undefined;

/**
 * util-linux `setpriv --pdeathsig KILL` makes the kernel send SIGKILL to the shell when Zi dies, even
 * by SIGKILL (no exit handler runs then). Feature-detected once: without it the shell runs as it is.
 */
export function parentDeathPrefix(): readonly string[] {
  if (pdeathsigPrefix === undefined) {
    const probe = process.platform === "linux" ? spawnSync("setpriv", ["--pdeathsig", "KILL", "true"], { stdio: "ignore", timeout: 5000 }) : undefined;
    pdeathsigPrefix = probe?.status === 0 ? ["setpriv", "--pdeathsig", "KILL", "--"] : [];
  }
  return pdeathsigPrefix;
}

/**
 * The process group a detached child leads (its pgid is its pid), and the processes known to be
 * the tool's. A number alone is not enough: once the group is empty its id can be reused by an
 * unrelated process, so before signalling, Zi checks that the group is still its own:
 *
 * - while the leader (the shell) has not exited, per its child handle, the pid cannot be reused;
 * - after that, only if a process recorded earlier as the tool's (same pid and same start time in
 *   `/proc`) is still in the group: a group with a member alive was never empty, so it is the same.
 *   The record is first taken when the leader's exit is reported: the members then (background jobs)
 *   kept the group, and so its id, in use since the leader started.
 *
 * The record is the closure, in `/proc`, of the leader and the recorded processes over "child of" and
 * "member of the verified group": it also holds descendants that left the group (`setsid`) while
 * their parent was known. It is refreshed whenever the group is signalled or settled.
 */
export class ProcessGroup {
  readonly pgid: number;
  private known = new Map<number, string>();

  constructor(private readonly leader: ChildProcess & { pid: number }) {
    this.pgid = leader.pid;
    installExitSweep();
    live.add(this);
    const entry = ProcTable.available ? ProcTable.stat(this.pgid) : undefined;
    if (entry) this.known.set(entry.pid, entry.start);
    leader.once("exit", () => this.refresh(true));
  }

  private get leaderRunning(): boolean {
    return this.leader.exitCode === null && this.leader.signalCode === null;
  }

  /**
   * Sends `signal` to the group, if it is still the tool's, and to the tool's processes that left it;
   * false when nothing of the tool's was left to signal.
   */
  signal(signal: NodeJS.Signals): boolean {
    const owned = this.refresh();
    let sent = false;
    if (owned === undefined ? this.leaderRunning : owned.verified) sent = kill(-this.pgid, signal);
    for (const entry of owned?.outside ?? []) sent = kill(entry.pid, signal) || sent;
    return sent;
  }

  /**
   * Called when the run is over. A group with nothing of the tool's left is forgotten (its id may be
   * reused); one that still has members (background jobs) stays on the exit sweep.
   */
  settle(): void {
    const owned = this.refresh();
    if (owned === undefined ? !this.leaderRunning : this.known.size === 0) live.delete(this);
  }

  /** Re-reads the tool's processes; undefined without `/proc`. */
  private refresh(leaderJustExited = false): { verified: boolean; outside: ProcEntry[] } | undefined {
    if (!ProcTable.available) return undefined;
    const all = ProcTable.all();
    const isKnown = (entry: ProcEntry) => this.known.get(entry.pid) === entry.start;
    const verified = leaderJustExited || this.leaderRunning || all.some((entry) => entry.pgrp === this.pgid && isKnown(entry));
    const owned = new Map<number, ProcEntry>();
    for (const entry of all) if (isKnown(entry) || (verified && entry.pgrp === this.pgid)) owned.set(entry.pid, entry);
    // Descendants of owned processes, to a fixed point (a parent may be listed after its child).
    for (let grew = true; grew; ) {
      grew = false;
      for (const entry of all) {
        if (!owned.has(entry.pid) && owned.has(entry.ppid)) {
          owned.set(entry.pid, entry);
          grew = true;
        }
      }
    }
    this.known = new Map([...owned.values()].map((entry) => [entry.pid, entry.start]));
    return { verified, outside: [...owned.values()].filter((entry) => entry.pgrp !== this.pgid) };
  }
}

function kill(target: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(target, signal);
    return true;
  } catch {
    return false; // already gone
  }
}
