import type * as acp from "@agentclientprotocol/sdk";

type Message = acp.AnyMessage & { id?: unknown; method?: unknown; params?: unknown };

/**
 * The ACP connection's incoming messages, in the order they arrived, with two promises the SDK alone
 * does not keep:
 *
 * - a request sent right after `initialize`, before its answer, is **queued** until that answer has
 *   left (the SDK's gate would refuse it as "must be initialized");
 * - `observe` sees each message at the moment it is handed on, in input order, before any handler
 *   runs: a `session/cancel` is applied there (a handler's own turn may come after a later prompt's,
 *   and the cancel must only cancel what was sent before it).
 */
export class AcpMessageOrder {
  private held: unknown;
  private readonly queue: Message[] = [];
  private incoming: TransformStreamDefaultController<acp.AnyMessage> | undefined;
  /** The end of input waits for queued messages to be handed on. */
  private drained: (() => void) | undefined;

  constructor(private readonly observe: (message: Message) => void) {}

  wrap(stream: acp.Stream): acp.Stream {
    const readable = stream.readable.pipeThrough(
      new TransformStream<acp.AnyMessage, acp.AnyMessage>({
        start: (controller) => void (this.incoming = controller),
        transform: (message) => {
          if (this.held !== undefined) this.queue.push(message);
          else this.pass(message);
        },
        flush: () => (this.held === undefined ? undefined : new Promise<void>((resolve) => (this.drained = resolve))),
      }),
    );
    const outgoing = new TransformStream<acp.AnyMessage, acp.AnyMessage>({
      transform: (message, controller) => {
        controller.enqueue(message);
        const { id } = message as Message;
        const answer = !("method" in message) && id !== undefined;
        if (this.held !== undefined && answer && id === this.held) this.release();
      },
    });
    void outgoing.readable.pipeTo(stream.writable).catch(() => undefined);
    return { readable, writable: outgoing.writable };
  }

  private pass(message: Message): void {
    this.observe(message);
    try {
      this.incoming!.enqueue(message);
    } catch {
      return; // the connection is closing: nothing reads any more
    }
    if (message.method === "initialize" && message.id !== undefined) this.held = message.id;
  }

  private release(): void {
    this.held = undefined;
    while (this.held === undefined && this.queue.length > 0) this.pass(this.queue.shift()!);
    if (this.held === undefined) this.drained?.();
  }
}
