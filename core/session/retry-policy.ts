import type { RetrySettings } from "./agent-session-options.js";

/** Exponential backoff for transient provider errors: base, 2×base, 4×base, ... capped at maxDelayMs. */
export class RetryPolicy {
  constructor(readonly settings: RetrySettings) {}

  get maxAttempts(): number {
    return this.settings.maxAttempts;
  }

  /** The wait before retry number `attempt` (1-based). */
  delayFor(attempt: number): number {
    const delay = this.settings.baseDelayMs * 2 ** (attempt - 1);
    return Math.max(0, Math.min(delay, this.settings.maxDelayMs));
  }

  /** Waits `delayMs`; resolves false at once if `signal` aborts first (the timer is cleared). */
  wait(delayMs: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      }, delayMs);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}
