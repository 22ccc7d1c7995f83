// This process's child processes from their creation (Node's `child_process` diagnostics channel sees
// every one, whoever spawns it) to their exit. A tool may answer before a ripgrep it stopped has exited,
// and a child's CPU time joins its parent's (cutime, cstime) only once Node has reaped it, just before
// the child's `exit` event: a reading of that time waits for `exited()` first.
import diagnostics from "node:diagnostics_channel";

export class ChildExits {
  #running = new Map();
  #follow = ({ process: child }) => {
    this.#running.set(child, new Promise((resolve) => {
      const done = () => {
        this.#running.delete(child);
        resolve();
      };
      child.once("exit", done);
      // A child that could not be spawned has no pid and never exits: its `error` is its end.
      child.once("error", () => child.pid === undefined && done());
    }));
  };

  /** Follows the children spawned from now on, until stop(). */
  static follow() {
    const exits = new ChildExits();
    diagnostics.subscribe("child_process", exits.#follow);
    return exits;
  }

  /** Resolves once every child followed so far has exited (at once when none is running). */
  async exited() {
    while (this.#running.size > 0) await Promise.all(this.#running.values());
  }

  stop() {
    diagnostics.unsubscribe("child_process", this.#follow);
  }
}
