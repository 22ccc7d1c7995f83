/**
 * How a one-shot run ended, as the process's exit status (docs/headless.md, "Exit codes"). The keys are
 * the `status` of the final `result` line; every status but `usage` is also an `agent_end` reason or
 * follows from one. A signal that interrupts the run exits 128 + its number (129, 130, 143) instead.
 */
export const RUN_EXIT_CODES = Object.freeze({
  completed: 0,
  failed: 1,
  /** A command-line problem (no model, an unreadable --output-schema, a budget that cannot be measured): no run, no result line. */
  usage: 2,
  budget_exceeded: 3,
  structured_output_invalid: 4,
  interrupted: 130,
});

export type RunStatus = Exclude<keyof typeof RUN_EXIT_CODES, "usage">;

