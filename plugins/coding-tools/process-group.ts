/** Groups that may still have members; each gets a SIGKILL if Zi exits first. */
const live = new Set<number>();
let exitSweepInstalled = false;

/**
 * Zi's shutdown bounds its wait for a run to settle, and an interrupted tool call settles before its
 * process tree is gone (a child ignoring SIGTERM gets SIGKILL only after the grace period). So
 * whatever group is still alive when the process exits gets SIGKILL from the 'exit' handler, which
 * runs synchronously on every exit path of Zi (process.exit after shutdown, and the end of the loop).
 */
function installExitSweep(): void {
  if (exitSweepInstalled) return;
  exitSweepInstalled = true;
  process.on("exit", () => {
    for (const pgid of live) {
      try {
        process.kill(-pgid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });
}

/**
 * The process group a detached child leads (its pgid is its pid). Signalling the group reaches
 * every descendant that did not move itself to another group or session.
 */
export class ProcessGroup {
  constructor(readonly pgid: number) {
    installExitSweep();
    live.add(pgid);
  }

  /** Sends `signal` to the whole group; false when the group no longer exists. */
  signal(signal: NodeJS.Signals): boolean {
    try {
      process.kill(-this.pgid, signal);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Called when the run is over. A group with no member left is forgotten (its id may be reused);
   * one that still has members (background jobs) stays on the exit sweep: no process of Zi's outlives it.
   */
  settle(): void {
    try {
      process.kill(-this.pgid, 0);
    } catch {
      live.delete(this.pgid);
    }
  }
}
