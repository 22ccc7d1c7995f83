export type RaceOutcome<T> = { type: "done"; value: T } | { type: "failed"; error: unknown } | { type: "aborted" };

/**
 * Runs work that was handed an abort signal, and stops waiting for it the moment the signal fires:
 * a tool or command that ignores its signal is abandoned (its late result is dropped), so an
 * interrupt never hangs on third-party code.
 */
export class AbortRace {
  private done = false;

  constructor(private readonly signal: AbortSignal) {}

  /** True once the outcome is decided; later updates from the work should be dropped. */
  get settled(): boolean {
    return this.done;
  }

  /**
   * `graceMs`: after the signal fires, wait this long for the work's own outcome (work that stops
   * promptly on its signal and reports what it stopped) before giving up on it.
   */
  run<T>(work: () => T | Promise<T>, graceMs = 0): Promise<RaceOutcome<T>> {
    return new Promise((resolve) => {
      let graceTimer: NodeJS.Timeout | undefined;
      const finish = (outcome: RaceOutcome<T>): void => {
        if (this.done) return;
        this.done = true;
        clearTimeout(graceTimer);
        this.signal.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      const onAbort = (): void => {
        if (graceMs <= 0) finish({ type: "aborted" });
        else graceTimer ??= setTimeout(() => finish({ type: "aborted" }), graceMs);
      };
      if (this.signal.aborted && graceMs <= 0) return finish({ type: "aborted" });
      if (this.signal.aborted) onAbort();
      this.signal.addEventListener("abort", onAbort, { once: true });
      Promise.resolve()
        .then(work)
        .then(
          (value) => finish({ type: "done", value }),
          (error: unknown) => finish({ type: "failed", error }),
        );
    });
  }
}
