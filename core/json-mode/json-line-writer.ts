import type { OutputSink } from "../kernel/output-sink.js";

const HIGH_WATER_BYTES = 1024 * 1024;

/**
 * JSONL output for `--mode json`: lines go straight to the sink; past 1 MiB unwritten the producer is
 * made to wait, so a reader that stops reading stalls the run instead of growing memory.
 */
export class JsonLineWriter {
  private pending = 0;
  private waiters: (() => void)[] = [];
  private idle: (() => void)[] = [];
  private broken = false;

  constructor(private readonly sink: OutputSink) {}

  writeLine(line: string): void | Promise<void> {
    if (this.broken) return;
    const bytes = Buffer.byteLength(line) + 1;
    this.pending += bytes;
    this.sink.write(`${line}\n`, (error) => {
      this.pending -= bytes;
      if (error) this.broken = true;
      if (this.pending < HIGH_WATER_BYTES || this.broken) for (const wake of this.waiters.splice(0)) wake();
      if (this.pending === 0 || this.broken) for (const wake of this.idle.splice(0)) wake();
    });
    if (this.pending < HIGH_WATER_BYTES) return;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Resolves once every line has left the process (or the reader went away). */
  drained(): Promise<void> {
    if (this.pending === 0 || this.broken) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }
}
