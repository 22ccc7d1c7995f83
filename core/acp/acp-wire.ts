// Values come from the SDK's unstable entry only (acp-main.ts says why).
import { MessageTooLargeError, RequestError } from "@agentclientprotocol/sdk/unstable";
import type * as acp from "@agentclientprotocol/sdk/unstable";
import type { OutputSink } from "../kernel/output-sink.js";

type Message = acp.AnyMessage & { id?: unknown; method?: unknown; params?: unknown };

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The ACP connection's wire: newline-delimited JSON-RPC on the process's stdin and stdout, framed as
 * the SDK's `ndJsonStream` frames it (a line past `maxMessageBytes` errors the connection with the
 * SDK's MessageTooLargeError; a line that is not JSON is answered with a parse error; blank lines are
 * skipped), but read from the Node stream and written to the output sink directly: no web streams
 * (`stream` says why), no encoding of each message to bytes and decoding it back. It keeps two
 * promises the SDK alone does not:
 *
 * - a request sent right after `initialize`, before its answer, is **queued** until that answer has
 *   been handed to the output (the SDK's gate would refuse it as "must be initialized");
 * - `observe` sees each message at the moment it is handed on, in input order, before any handler
 *   runs: a `session/cancel` is applied there (a handler's own turn may come after a later prompt's,
 *   and the cancel must only cancel what was sent before it).
 */
export class AcpWire {
  private held: unknown;
  private readonly queue: Message[] = [];
  /** Handed on and not read yet, and the connection's read waiting for the next one. */
  private readonly ready: acp.AnyMessage[] = [];
  private waiting: { resolve: (result: ReadableStreamReadResult<acp.AnyMessage>) => void; reject: (error: unknown) => void } | undefined;
  private failure: { error: Error } | undefined;
  private closed = false;
  /** The end of input, once queued messages have been handed on. */
  private ended = false;
  private stopped = false;
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private pendingWrites = 0;
  private drainedWaiters: (() => void)[] = [];
  private readonly onData = (chunk: Buffer | string) => this.receive(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  private readonly onEnd = () => this.end();
  private readonly onError = (error: Error) => this.fail(error);

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: OutputSink,
    private readonly maxMessageBytes: number,
    private readonly observe: (message: Message) => void,
  ) {}

  /**
   * The SDK's message stream over stdin and stdout; call once. Not web streams: the SDK's connection
   * (2.4, core/jsonrpc.js) only reads through `getReader()` (`read`, `releaseLock`, `cancel`) and
   * writes through `getWriter()` (`write`, `releaseLock`), one message at a time, and a
   * ReadableStream and a WritableStream cost ~3.6 ms of CPU at their first use (cold, measured
   * against these), before the first reply. An SDK that reads them otherwise fails every ACP test.
   */
  stream(): acp.Stream {
    this.input.on("data", this.onData).once("end", this.onEnd).once("error", this.onError);
    const reader = {
      read: () => this.read(),
      releaseLock: () => undefined,
      cancel: () => Promise.resolve(this.stop()),
    };
    const writer = { write: (message: acp.AnyMessage) => this.send(message), releaseLock: () => undefined };
    return { readable: { getReader: () => reader }, writable: { getWriter: () => writer } } as unknown as acp.Stream;
  }

  /** Settles once every message handed to the output has left the process. */
  drained(): Promise<void> {
    if (this.pendingWrites === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainedWaiters.push(resolve));
  }

  private read(): Promise<ReadableStreamReadResult<acp.AnyMessage>> {
    if (this.failure) return Promise.reject(this.failure.error);
    const message = this.ready.shift();
    if (message !== undefined) return Promise.resolve({ value: message, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    // Read only as fast as the connection takes messages (the SDK reads them one by one).
    if (!this.stopped) this.input.resume();
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  /** A message for the connection's next read. */
  private enqueue(message: acp.AnyMessage): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting.resolve({ value: message, done: false });
    else this.ready.push(message);
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    // A cancelled web stream's pending read ends as done.
    this.waiting?.resolve({ value: undefined, done: true });
    this.waiting = undefined;
    this.input.off("data", this.onData).off("end", this.onEnd).off("error", this.onError);
    (this.input as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  }

  private send(message: acp.AnyMessage): Promise<void> {
    const written = this.write(message);
    const { id } = message as Message;
    if (this.held !== undefined && !("method" in message) && id !== undefined && id === this.held) this.release();
    return written;
  }

  private write(message: object): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pendingWrites++;
      this.output.write(`${JSON.stringify(message)}\n`, (error) => {
        if (--this.pendingWrites === 0) for (const wake of this.drainedWaiters.splice(0)) wake();
        if (error) reject(error);
        else resolve();
      });
    });
  }

  private receive(chunk: Buffer): void {
    if (this.stopped) return;
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      const line = this.take(chunk.subarray(start, newline));
      start = newline + 1;
      if (line === undefined) return;
      this.line(line);
      if (this.stopped) return;
    }
    if (start < chunk.length) {
      const tail = chunk.subarray(start);
      if (!this.fits(tail)) return;
      // Copied: a stream may reuse its chunk's memory once the handler has returned.
      this.partial.push(Buffer.from(tail));
      this.partialBytes += tail.length;
    }
    if (this.ready.length > 0) this.input.pause();
  }

  /** The line ending with `tail`: the bytes carried from earlier chunks and `tail`; undefined once it is too long. */
  private take(tail: Buffer): Buffer | undefined {
    if (!this.fits(tail)) return undefined;
    if (this.partial.length === 0) return tail;
    const line = Buffer.concat([...this.partial, tail]);
    this.partial = [];
    this.partialBytes = 0;
    return line;
  }

  /** Whether the line so far, with `tail`, is within the bound (a final CR not counted, as the SDK counts); if not, the connection errors. */
  private fits(tail: Buffer): boolean {
    const last = tail.length > 0 ? tail[tail.length - 1] : this.partial.at(-1)?.at(-1);
    if (this.partialBytes + tail.length - (last === CARRIAGE_RETURN ? 1 : 0) <= this.maxMessageBytes) return true;
    this.fail(new MessageTooLargeError(this.maxMessageBytes));
    return false;
  }

  private line(bytes: Buffer): void {
    const text = bytes.toString("utf8").trim();
    if (text === "") return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return this.refuse(RequestError.parseError());
    }
    // As ndJsonStream answers them: ACP has no batches, and a message is an object.
    if (Array.isArray(message)) return this.refuse(RequestError.invalidRequest(undefined, "JSON-RPC batches are not supported"));
    if (typeof message !== "object" || message === null) return this.refuse(RequestError.invalidRequest(message));
    if (this.held !== undefined) this.queue.push(message as Message);
    else this.pass(message as Message);
  }

  private refuse(error: RequestError): void {
    void this.write({ jsonrpc: "2.0", id: null, error: error.toErrorResponse() }).catch(() => undefined);
  }

  private end(): void {
    if (this.stopped) return;
    if (this.partialBytes > 0) {
      const line = Buffer.concat(this.partial);
      this.partial = [];
      this.partialBytes = 0;
      this.line(line);
    }
    this.ended = true;
    this.closeIfDone();
  }

  private fail(error: Error): void {
    if (this.stopped) return;
    this.partial = [];
    this.partialBytes = 0;
    // As an errored web stream: what was not read yet is dropped, and every read rejects.
    this.failure = { error };
    this.ready.length = 0;
    this.waiting?.reject(error);
    this.waiting = undefined;
    this.stop();
  }

  private pass(message: Message): void {
    this.observe(message);
    this.enqueue(message);
    if (message.method === "initialize" && message.id !== undefined) this.held = message.id;
  }

  private release(): void {
    this.held = undefined;
    while (this.held === undefined && this.queue.length > 0) this.pass(this.queue.shift()!);
    this.closeIfDone();
  }

  private closeIfDone(): void {
    if (!this.ended || this.held !== undefined || this.stopped) return;
    this.stopped = true;
    this.closed = true;
    this.waiting?.resolve({ value: undefined, done: true });
    this.waiting = undefined;
  }
}
