import type * as PiAi from "@mariozechner/pi-ai";
import { ReadGate } from "./read-gate.js";

/** What the session consumes of a model call: its events in order, then the final message. */
export interface ModelEventStream extends AsyncIterable<PiAi.AssistantMessageEvent> {
  result(): Promise<PiAi.AssistantMessage>;
}

type DeltaEvent = Extract<PiAi.AssistantMessageEvent, { type: "text_delta" | "thinking_delta" | "toolcall_delta" }>;

/** Deltas waiting for the consumer start to coalesce once this many events are waiting. */
export const COALESCE_BACKLOG_EVENTS = 256;
/** A coalesced delta holds at most this many characters; the next one starts a new delta. */
export const MAX_COALESCED_DELTA_CHARS = 256 * 1024;
/** The provider's response is read no further while this many delta characters wait... */
export const READ_AHEAD_CHARS = 256 * 1024;
/** ...or this many events. */
const READ_AHEAD_EVENTS = 4096;
/** Pieces of a coalesced delta are joined this often, so its cost stays its text (no per-piece strings). */
const JOIN_PIECES = 1024;

/** What BufferedModelStream.adopt relies on of pi-ai's EventStream (0.73.1): its public push/end and its (private) queue and done flag. */
interface PiAiEventStreamInternals {
  push(event: PiAi.AssistantMessageEvent): void;
  end(result?: PiAi.AssistantMessage): void;
  queue?: unknown;
  done?: unknown;
}

const isDelta = (event: PiAi.AssistantMessageEvent): event is DeltaEvent =>
  event.type === "text_delta" || event.type === "thinking_delta" || event.type === "toolcall_delta";

/** Consecutive deltas of one content block that were still waiting when the next one arrived. */
class DeltaRun {
  private pieces: string[];
  chars: number;

  constructor(private readonly first: DeltaEvent) {
    this.pieces = [first.delta];
    this.chars = first.delta.length;
  }

  accepts(event: DeltaEvent): boolean {
    return event.type === this.first.type && event.contentIndex === this.first.contentIndex && this.chars < MAX_COALESCED_DELTA_CHARS;
  }

  add(event: DeltaEvent): void {
    this.pieces.push(event.delta);
    this.chars += event.delta.length;
    if (this.pieces.length >= JOIN_PIECES) this.pieces = [this.pieces.join("")];
  }

  event(): DeltaEvent {
    return { ...this.first, delta: this.pieces.join("") };
  }
}

/**
 * Drains a pi-ai event stream into a queue read from a moving head index, for two reasons.
 * pi-ai's own stream dequeues with Array.shift(); when the session is held back by output
 * backpressure the provider runs ahead, the array outgrows V8's in-place left-trimming, and every
 * shift becomes a copy of the whole backlog: quadratic in the reply's length. Here each event is
 * handled once.
 * And a stalled session must cost the reply's text, not its number of deltas: once
 * COALESCE_BACKLOG_EVENTS events wait, a delta that follows a waiting delta of the same content block
 * is appended to it (the text a client rebuilds is unchanged; only the number of `message_update`
 * events shrinks), and once READ_AHEAD_CHARS of deltas wait the call's ReadGate closes, so an HTTP
 * provider's response is not read further until the session catches up.
 */
export class BufferedModelStream implements ModelEventStream {
  private readonly events: (PiAi.AssistantMessageEvent | DeltaRun)[] = [];
  private head = 0;
  private waitingChars = 0;
  private ended = false;
  private failure: unknown;
  private wake: (() => void) | undefined;
  private settledMessage: PiAi.AssistantMessage | undefined;

  /**
   * `settle` sees the call's final message (its `done` or `error` event's, or `result`'s) once,
   * before any consumer does, and may amend it (the registry scrubs credentials from an error).
   */
  constructor(
    private readonly source: ModelEventStream,
    private readonly gate: ReadGate = new ReadGate(),
    private readonly settle?: (message: PiAi.AssistantMessage) => void,
  ) {
    if (!this.adopt(source)) void this.drain();
  }

  /** `stream` itself when it is buffered already, else `stream` buffered (a stream a test hands in). */
  static of(stream: ModelEventStream): BufferedModelStream {
    return stream instanceof BufferedModelStream ? stream : new BufferedModelStream(stream);
  }

  /** A caller that only wants the final message (the compactor) is not a consumer to wait for. */
  result(): Promise<PiAi.AssistantMessage> {
    this.gate.release();
    return this.source.result().then((message) => this.settled(message));
  }

  async *[Symbol.asyncIterator](): AsyncIterator<PiAi.AssistantMessageEvent> {
    try {
      for (;;) {
        const event = this.take();
        if (event !== undefined) yield event;
        else if (!(await this.arrival())) return;
      }
    } finally {
      // A consumer that stops early (or finished) never holds the provider's read back.
      this.close();
    }
  }

  /**
   * The next waiting event, or undefined when none waits now (`arrival` says when one does). A
   * consumer that takes events one by one in a loop pays no promise per event, as `for await` does.
   */
  take(): PiAi.AssistantMessageEvent | undefined {
    if (this.head >= this.events.length) return undefined;
    const item = this.events[this.head];
    this.events[this.head++] = undefined as never;
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events.splice(0, this.head);
      this.head = 0;
    }
    const event = item instanceof DeltaRun ? item.event() : item;
    if (isDelta(event)) this.waitingChars -= item instanceof DeltaRun ? item.chars : event.delta.length;
    this.gate.open = !this.atReadAheadBound();
    return event;
  }

  /** Resolves true once an event waits, false once the stream has ended; rejects with the source's failure after its events. */
  async arrival(): Promise<boolean> {
    while (this.head >= this.events.length) {
      if (this.ended) {
        if (this.failure !== undefined) throw this.failure;
        return false;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    return true;
  }

  /** The consumer is gone (or finished): the provider's read is never held back for it again. */
  close(): void {
    this.gate.release();
  }

  private atReadAheadBound(): boolean {
    return this.waitingChars >= READ_AHEAD_CHARS || this.events.length - this.head >= READ_AHEAD_EVENTS;
  }

  /** The final message through `settle`, once, before anyone sees it (an event or `result`). */
  private settled(message: PiAi.AssistantMessage): PiAi.AssistantMessage {
    if (this.settle && message !== this.settledMessage) {
      this.settledMessage = message;
      this.settle(message);
    }
    return message;
  }

  /**
   * Takes over a pi-ai event stream nothing was pushed into yet: its provider's `push` hands each
   * event straight here, instead of through pi-ai's queue and async iterator (a chain of promises
   * per streamed delta, for one consumer). Only the final event goes through pi-ai's own `push` too,
   * for its `result()`. Anything else (a stream with events queued already, another iterable) is
   * drained by iteration.
   */
  private adopt(source: ModelEventStream): boolean {
    const stream = source as unknown as PiAiEventStreamInternals;
    if (typeof stream.push !== "function" || typeof stream.end !== "function" || !Array.isArray(stream.queue) || stream.queue.length > 0 || stream.done !== false) return false;
    const push = stream.push.bind(stream);
    const end = stream.end.bind(stream);
    let over = false;
    stream.push = (event) => {
      if (over) return;
      this.accept(event);
      if (event.type !== "done" && event.type !== "error") return;
      over = true;
      push(event);
      this.finish();
    };
    stream.end = (result) => {
      over = true;
      end(result);
      this.finish();
    };
    return true;
  }

  private async drain(): Promise<void> {
    try {
      for await (const event of this.source) this.accept(event);
    } catch (error) {
      this.failure = error;
    }
    this.finish();
  }

  private accept(event: PiAi.AssistantMessageEvent): void {
    if (event.type === "done") this.settled(event.message);
    else if (event.type === "error") this.settled(event.error);
    this.push(event);
    this.notify();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.gate.release();
    this.notify();
  }

  private push(event: PiAi.AssistantMessageEvent): void {
    if (!isDelta(event)) {
      this.events.push(event);
      return;
    }
    this.waitingChars += event.delta.length;
    if (this.events.length - this.head >= COALESCE_BACKLOG_EVENTS) {
      const last = this.events[this.events.length - 1];
      if (last instanceof DeltaRun && last.accepts(event)) last.add(event);
      else this.events.push(new DeltaRun(event));
    } else {
      this.events.push(event);
    }
    if (this.atReadAheadBound()) this.gate.open = false;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
