/**
 * Exit statuses of the one-shot modes, `zi -p` and `zi --mode json`, defined once for both: 0 the run
 * completed, 1 it failed (provider error, no usable model, startup), 2 usage, 130 interrupted.
 */
export const ONE_SHOT_EXIT = Object.freeze({ completed: 0, failed: 1, usage: 2, interrupted: 130 });
