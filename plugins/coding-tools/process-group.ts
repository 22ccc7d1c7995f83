/**
 * The process group a detached child leads (its pgid is its pid). Signalling the group reaches
 * every descendant that did not move itself to another group or session.
 */
export class ProcessGroup {
  constructor(readonly pgid: number) {}

  /** Sends `signal` to the whole group; false when the group no longer exists. */
  signal(signal: NodeJS.Signals): boolean {
    try {
      process.kill(-this.pgid, signal);
      return true;
    } catch {
      return false;
    }
  }
}
