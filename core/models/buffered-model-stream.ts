import type * as PiAi from "@mariozechner/pi-ai";

/** What the session consumes of a model call: its events in order, then the final message. */
export interface ModelEventStream extends AsyncIterable<PiAi.AssistantMessageEvent> {
  result(): Promise<PiAi.AssistantMessage>;
}

/**
 * Drains a pi-ai event stream as fast as it produces, into a queue read from a moving head index.
 * pi-ai's own stream dequeues with Array.shift(); when the session is held back by output
 * backpressure the provider runs far ahead, the array outgrows V8's in-place left-trimming, and every
 * shift becomes a copy of the whole backlog: quadratic in the reply's length (measured: half of Zi's
 * CPU on a 50,000-delta reply). Here each event is handled once.
 */
export class BufferedModelStream implements ModelEventStream {
  private readonly events: PiAi.AssistantMessageEvent[] = [];
  private head = 0;
  private ended = false;
  private failure: unknown;
  private wake: (() => void) | undefined;

  constructor(private readonly source: PiAi.AssistantMessageEventStream) {
    void this.drain();
  }

  result(): Promise<PiAi.AssistantMessage> {
    return this.source.result();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<PiAi.AssistantMessageEvent> {
    for (;;) {
      if (this.head < this.events.length) {
        const event = this.events[this.head];
        this.events[this.head++] = undefined as never;
        if (this.head > 1024 && this.head * 2 > this.events.length) {
          this.events.splice(0, this.head);
          this.head = 0;
        }
        yield event;
      } else if (this.ended) {
        if (this.failure !== undefined) throw this.failure;
        return;
      } else {
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    }
  }

  private async drain(): Promise<void> {
    try {
      for await (const event of this.source) {
        this.events.push(event);
        this.notify();
      }
    } catch (error) {
      this.failure = error;
    }
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
