import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import type { ChildProcessWithoutNullStreams } from "node:child_process";

/**
 * A scripted stand-in for a spawned zi, for the cases a correct Zi never produces (a lost frame, a
 * line that is not JSON). Tests write server frames with `emit` and read what the client sent.
 */
export class FakeChild extends EventEmitter {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly sent: any[] = [];
  killedWith: string | undefined;
  private sequence = 0;

  constructor() {
    super();
    let buffered = "";
    this.stdin.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
        this.sent.push(JSON.parse(buffered.slice(0, nl)));
        buffered = buffered.slice(nl + 1);
      }
    });
  }

  get asChild(): ChildProcessWithoutNullStreams {
    return this as unknown as ChildProcessWithoutNullStreams;
  }

  /** Writes a frame with the next sequence number (or the one given). */
  emitFrame(frame: object, sequence = ++this.sequence): void {
    this.sequence = sequence;
    this.stdout.write(`${JSON.stringify({ version: 1, sequence, ...frame })}\n`);
  }

  emitRaw(text: string): void {
    this.stdout.write(text);
  }

  kill(signal: string): boolean {
    this.killedWith = signal;
    this.exit(null, signal);
    return true;
  }

  exit(code: number | null, signal: string | null = null): void {
    this.stdout.end();
    this.stderr.end();
    setImmediate(() => this.emit("close", code, signal));
  }

  /** Resolves once the client has sent `count` records. */
  async waitForSent(count: number): Promise<void> {
    while (this.sent.length < count) await new Promise((resolve) => setImmediate(resolve));
  }
}
