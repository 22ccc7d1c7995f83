import type { OutputSink } from "../kernel/output-sink.js";

/**
 * An in-memory stdout. While reading, every write completes at once; after `stall()` writes stay
 * pending (a client that stopped reading) until `release()`; `break()` fails them (a closed pipe).
 * `waitFor` is woken by writes only: no timers.
 */
export class MemoryOutput implements OutputSink {
  readonly lines: string[] = [];
  private stalled = false;
  private held: { data: string; done: (error?: Error | null) => void }[] = [];
  /** Writes given as bytes, as Zi writes responses it keeps as bytes. */
  bufferWrites = 0;
  private waiters: { count: number; wake: () => void }[] = [];
  private heldWaiters: { count: number; wake: () => void }[] = [];
  writes = 0;
  broken: Error | null = null;

  write(bytes: string | Buffer, done: (error?: Error | null) => void): void {
    this.writes++;
    if (typeof bytes !== "string") this.bufferWrites++;
    // Decoded at once: the writer's buffer is its own to reuse once `done` has run.
    const data = typeof bytes === "string" ? bytes : bytes.toString("utf8");
    if (this.broken) return void setImmediate(() => done(this.broken));
    if (this.stalled) {
      this.held.push({ data, done });
      const held = this.heldRecords;
      this.heldWaiters = this.heldWaiters.filter((waiter) => (held >= waiter.count ? (waiter.wake(), false) : true));
      return;
    }
    this.accept(data);
    setImmediate(done);
  }

  stall(): void {
    this.stalled = true;
  }

  /** Accepts what is held and reads on; `stall()` again to stop. */
  release(): void {
    this.stalled = false;
    for (const { data, done } of this.held.splice(0)) {
      this.accept(data);
      setImmediate(done);
    }
  }

  /** Accepts only what is held now, and stays stalled: a client that reads one chunk at a time. */
  releaseHeld(): void {
    for (const { data, done } of this.held.splice(0)) {
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

  /** Every frame written so far, parsed. */
  frames(): any[] {
    return this.lines.map((line) => JSON.parse(line));
  }

  /** Resolves once at least `count` records are held by a stalled output. */
  async waitForHeld(count: number): Promise<void> {
    if (this.heldRecords < count) await new Promise<void>((wake) => this.heldWaiters.push({ count, wake }));
  }

  /** Resolves with every frame once at least `count` have been written. */
  async waitFor(count: number): Promise<any[]> {
    if (this.lines.length < count) await new Promise<void>((wake) => this.waiters.push({ count, wake }));
    return this.frames();
  }

  private accept(data: string): void {
    if (!data.endsWith("\n")) throw new Error("a write must end with LF");
    for (const line of data.slice(0, -1).split("\n")) this.lines.push(line);
    this.waiters = this.waiters.filter((waiter) => (this.lines.length >= waiter.count ? (waiter.wake(), false) : true));
  }
}
