import { RpcError } from "../kernel/rpc-error.js";
import type { CompletionTracker } from "./completion-tracker.js";
import type { AwaitIdleResult } from "../wire/session-types.js";

interface Waiter {
  completionId: string | undefined;
  resolve(result: AwaitIdleResult): void;
}

/** Pending `awaitIdle` calls, answered with the completion evidence that held when the session settled. */
export class IdleWatchers {
  private readonly waiters = new Set<Waiter>();

  constructor(
    private readonly tracker: CompletionTracker,
    private readonly messageCount: () => number,
  ) {}

  /**
   * `settled` is undefined while the session works; when it is already settled, a promise that
   * resolves once the events emitted so far were delivered (the answer waits for it).
   */
  wait(completionId: string | undefined, signal: AbortSignal, settled: Promise<void> | undefined): Promise<AwaitIdleResult> {
    const cancelled = (): RpcError => new RpcError("operation_failed", "await_idle was cancelled before the session became idle");
    if (signal.aborted) return Promise.reject(cancelled());
    if (settled) {
      const result = this.tracker.observe(completionId, this.messageCount());
      return settled.then(() => result);
    }
    return new Promise<AwaitIdleResult>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiters.delete(waiter);
        reject(cancelled());
      };
      const waiter: Waiter = {
        completionId,
        resolve: (result) => {
          signal.removeEventListener("abort", onAbort);
          resolve(result);
        },
      };
      this.waiters.add(waiter);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * Call when the session has just settled. Results are taken now, but answered only once
   * `announced` (the delivery of the settling activity change) resolves, so an answer never
   * overtakes the events that led to it.
   */
  release(announced: Promise<void>): void {
    if (this.waiters.size === 0) return;
    const waiters = [...this.waiters];
    this.waiters.clear();
    const messageCount = this.messageCount();
    const results = waiters.map((waiter) => this.tracker.observe(waiter.completionId, messageCount));
    void announced.then(() => waiters.forEach((waiter, index) => waiter.resolve(results[index]!)));
  }
}
