import type { OutputSink } from "../../core/kernel/output-sink.js";

/**
 * An in-memory stdout. In `reading` mode every write completes at once; with `stall()` writes stay
 * pending (a client that stopped reading) until `release()`.
 */
export class MemorySink implements OutputSink {
  readonly lines: string[] = [];
  private stalled = false;
  private held: { data: string; done: (error?: Error | null) => void }[] = [];
  private listeners: (() => void)[] = [];
  writes = 0;
  broken: Error | null = null;

  write(data: string, done: (error?: Error | null) => void): void {
    this.writes++;
    if (this.broken) return void setImmediate(() => done(this.broken));
    if (this.stalled) {
      this.held.push({ data, done });
      return;
    }
    this.accept(data);
    setImmediate(done);
  }

  stall(): void {
    this.stalled = true;
  }

  release(): void {
    this.stalled = false;
    const held = this.held.splice(0);
    for (const { data, done } of held) {
      this.accept(data);
      setImmediate(done);
    }
  }

  break(error = new Error("EPIPE")): void {
    this.broken = error;
    for (const { done } of this.held.splice(0)) setImmediate(() => done(error));
  }

  get heldBytes(): number {
    return this.held.reduce((sum, { data }) => sum + Buffer.byteLength(data), 0);
  }

  get heldRecords(): number {
    return this.held.reduce((sum, { data }) => sum + data.split("\n").length - 1, 0);
  }

  frames(): any[] {
    return this.lines.map((line) => JSON.parse(line));
  }

  /** Resolves once at least `count` frames have been written. */
  async waitFor(count: number, timeoutMs = 5000): Promise<any[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length < count) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} frames, have ${this.lines.length}: ${this.lines.join("\n")}`);
      await new Promise<void>((resolve) => this.listeners.push(resolve) && setTimeout(resolve, 20));
    }
    return this.frames();
  }

  private accept(data: string): void {
    if (!data.endsWith("\n")) throw new Error("a write must end with LF");
    for (const line of data.slice(0, -1).split("\n")) this.lines.push(line);
    for (const wake of this.listeners.splice(0)) wake();
  }
}
