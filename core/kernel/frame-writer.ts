import type { OutputSink } from "./output-sink.js";
import type { ResponseBytes } from "./response-bytes.js";
import { FrameBatch } from "./frame-batch.js";
import { WriteLog } from "./write-log.js";

/** `{"version":1,"sequence":` + up to 16 digits + `,` + LF, less the body's own `{`. */
const FRAME_HEADER_MAX_BYTES = 41;
/** Large enough to amortise a syscall, small enough that a pipe drains it in one go. */
const WRITE_CHUNK_BYTES = 64 * 1024;

/** A frame's members: JSON text without its opening brace, or a response kept as bytes. */
type Members = string | ResponseBytes;

interface Waiter {
  members: Members;
  bytes: number;
  resolve: () => void;
}

export interface FrameWriterBounds {
  maxPendingRecords: number;
  maxPendingBytes: number;
}

/**
 * The one ordered output lane. It stamps `version` and a gapless `sequence` on every frame at the moment
 * the frame enters the lane, joins the frames of one event-loop turn (or of one input chunk, on
 * `flushNow`) into writes of about 64 KiB, and never lets
 * pending output (joined but unwritten, plus written but not yet drained) exceed its bounds: a frame
 * that does not fit waits, in FIFO order, and its producer waits with it. Nothing is ever dropped while
 * the sink is writable.
 */
export class FrameWriter {
  private sequence = 0;
  /** The frames of this turn; `spare` is the other batch, the one flush() is writing out or that waits empty. */
  private batch = new FrameBatch();
  private spare = new FrameBatch();
  private flushing = false;
  /** While above 0, frames wait for release() or flushNow() instead of an end-of-turn flush (see hold()). */
  private held = 0;
  private readonly writes = new WriteLog();
  /** The last buffer written: the next one of the same length reuses it once every write is done. */
  private lastBuffer: Buffer | undefined;
  /** The end-of-turn flush; cancelled when flushNow() comes first, so the event loop need not spin once more for nothing. */
  private scheduledFlush: NodeJS.Immediate | undefined;
  private pendingRecords = 0;
  private pendingBytes = 0;
  private readonly waiters: Waiter[] = [];
  private broken = false;
  private idleWaiters: (() => void)[] = [];
  private spaceWaiters: (() => void)[] = [];

  constructor(
    private readonly sink: OutputSink,
    private readonly bounds: FrameWriterBounds,
    private readonly onBroken: (error: Error) => void = () => {},
  ) {}

  /** True while output is at its bound: the reader stops reading until there is room again. */
  get full(): boolean {
    return (
      this.waiters.length > 0 ||
      this.pendingRecords >= this.bounds.maxPendingRecords ||
      this.pendingBytes >= this.bounds.maxPendingBytes
    );
  }

  get writable(): boolean {
    return !this.broken;
  }

  /**
   * Queues a frame given as the JSON of an object without `version`/`sequence` (e.g. `{"type":"ready",...}`).
   * Returns undefined when the frame is in the lane, or a promise that resolves once it is.
   */
  send(body: string): void | Promise<void> {
    return this.sendMembers(body.slice(1));
  }

  /**
   * `send` for a body built without its opening brace (`"type":"response",...}`), saving a copy per frame.
   * `membersBytes`, when the caller knows it, is the UTF-8 length of `members`: counting it here would
   * flatten a concatenated body into one more copy of it.
   */
  sendMembers(members: string, membersBytes?: number): void | Promise<void> {
    if (this.broken) return;
    // Counted with the longest possible header, so the accounting can only overestimate.
    return this.admit(members, (membersBytes ?? Buffer.byteLength(members)) + FRAME_HEADER_MAX_BYTES);
  }

  /** `send` for an `ok` response kept as bytes: written from its parts, never as a string. */
  sendResponse(response: ResponseBytes): void | Promise<void> {
    if (this.broken) return;
    return this.admit(response, response.bytes + FRAME_HEADER_MAX_BYTES);
  }

  private admit(members: Members, bytes: number): void | Promise<void> {
    if (this.waiters.length === 0 && this.fits(bytes)) {
      this.enqueue(members, bytes);
      return;
    }
    return new Promise<void>((resolve) => this.waiters.push({ members, bytes, resolve }));
  }

  /** Resolves when output is below its bound again (immediately if it is). */
  whenNotFull(): Promise<void> {
    if (!this.full || this.broken) return Promise.resolve();
    return new Promise((resolve) => this.spaceWaiters.push(resolve));
  }

  /** Resolves when every queued frame has been handed to the OS, or the sink broke. */
  drained(): Promise<void> {
    if (this.broken || (this.pendingRecords === 0 && this.waiters.length === 0)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Gives up on output that a reader did not take within the shutdown's flush bound: every waiting
   * producer is released (its frame dropped) and nothing more is written, so the session can be
   * disposed without waiting for a reader that is not reading.
   */
  abandon(): void {
    if (this.broken) return;
    this.broken = true;
    this.releaseAll();
  }

  private fits(bytes: number): boolean {
    if (this.pendingRecords === 0) return true; // one record is at most the record bound, always below the byte bound
    return (
      this.pendingRecords + 1 <= this.bounds.maxPendingRecords &&
      this.pendingBytes + bytes <= this.bounds.maxPendingBytes
    );
  }

  private enqueue(members: Members, bytes: number): void {
    this.sequence++;
    if (typeof members === "string") this.batch.add(`{"version":1,"sequence":${this.sequence},${members}\n`, this.sequence, bytes);
    else this.batch.add(members, this.sequence, bytes);
    this.pendingRecords++;
    this.pendingBytes += bytes;
    if (this.held === 0) this.scheduledFlush ??= setImmediate(this.flush);
  }

  /**
   * The reader holds the writer while it admits an input chunk and calls flushNow() when done, so the
   * frames it produces meanwhile need no end-of-turn flush scheduled for each of them; release() makes
   * sure whatever is still queued then is flushed at the end of the turn, as ever.
   */
  hold(): void {
    this.held++;
  }

  release(): void {
    if (--this.held === 0 && this.batch.length > 0) this.scheduledFlush ??= setImmediate(this.flush);
  }

  /**
   * Writes what is queued now instead of at the end of the event-loop turn: the reader calls it once
   * it has admitted a whole input chunk, so responses leave without waiting for another turn.
   */
  flushNow(): void {
    this.flush();
  }

  /**
   * Joins queued frames into writes of about WRITE_CHUNK_BYTES. Each write is accounted on its own, so
   * capacity comes back write by write while the reader drains, and admission overlaps with output.
   */
  private readonly flush = (): void => {
    if (this.scheduledFlush !== undefined) {
      clearImmediate(this.scheduledFlush);
      this.scheduledFlush = undefined;
    }
    const batch = this.batch;
    if (batch.length === 0) return;
    // A write that completes synchronously can queue frames (waiters let in) while this one runs: they go next turn.
    if (this.flushing) {
      this.scheduledFlush = setImmediate(this.flush);
      return;
    }
    this.batch = this.spare;
    this.spare = batch;
    if (this.broken) return batch.clear();
    this.flushing = true;
    try {
      let first = 0;
      let bytes = 0;
      let text = false;
      for (let i = 0; i < batch.length; i++) {
        bytes += batch.size(i);
        text ||= batch.isText(i);
        if (bytes >= WRITE_CHUNK_BYTES || i === batch.length - 1) {
          const data = batch.join(first, i + 1, text, this.allocate);
          this.writes.add(i + 1 - first, bytes);
          this.sink.write(data, this.onWritten);
          first = i + 1;
          bytes = 0;
          text = false;
        }
      }
    } finally {
      this.flushing = false;
      batch.clear();
    }
  };

  /**
   * Sequential requests get answers of one length, one write at a time: with no write pending the
   * sink is done with the last buffer (OutputSink), so it is written again instead of a new one.
   */
  private readonly allocate = (length: number): Buffer => {
    const last = this.lastBuffer;
    if (last !== undefined && last.length === length && this.writes.empty) return last;
    return (this.lastBuffer = Buffer.allocUnsafe(length));
  };

  /** One callback for every write (not a closure per write): the sink completes them in order. */
  private readonly onWritten = (error?: Error | null): void => {
    const records = this.writes.takeRecords();
    this.written(records, this.writes.takenBytes(), error);
  };

  private written(records: number, bytes: number, error?: Error | null): void {
    this.pendingRecords -= records;
    this.pendingBytes -= bytes;
    if (error && !this.broken) {
      this.broken = true;
      this.releaseAll();
      this.onBroken(error);
      return;
    }
    while (this.waiters.length > 0 && this.fits(this.waiters[0].bytes)) {
      const waiter = this.waiters.shift()!;
      this.enqueue(waiter.members, waiter.bytes);
      waiter.resolve();
    }
    if (!this.full) this.wake(this.spaceWaiters);
    if (this.pendingRecords === 0 && this.waiters.length === 0) this.wake(this.idleWaiters);
  }

  private releaseAll(): void {
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
    this.batch.clear();
    this.wake(this.spaceWaiters);
    this.wake(this.idleWaiters);
  }

  private wake(list: (() => void)[]): void {
    if (list.length === 0) return;
    const callbacks = list.splice(0);
    for (const callback of callbacks) callback();
  }
}

