import type { AgentSessionEvent, SessionEventListener } from "../session/session-types.js";
import { oneLine } from "./one-line.js";

type EventSource = { subscribe(listener: SessionEventListener): () => void };

/**
 * The session's events plus the extension host's own (`extension_error`), as one stream: what the RPC
 * connection forwards and what extensions' `on("*")` sees. The session owns its event bus and offers
 * no way to emit into it, so host events travel beside it; they keep their own order and honour a
 * listener's backpressure (a returned promise) like session events do.
 */
export class ExtensionEventStream {
  private listeners: SessionEventListener[] = [];
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: EventSource,
    private readonly warn: (line: string) => void,
  ) {}

  subscribe(listener: SessionEventListener): () => void {
    const unsubscribe = this.session.subscribe(listener);
    this.listeners = [...this.listeners, listener];
    return () => {
      unsubscribe();
      this.listeners = this.listeners.filter((candidate) => candidate !== listener);
    };
  }

  /** Resolves once every listener has accepted the event. */
  emit(event: AgentSessionEvent): Promise<void> {
    this.tail = this.tail.then(() => this.deliver(event));
    return this.tail;
  }

  private async deliver(event: AgentSessionEvent): Promise<void> {
    const pending: Promise<unknown>[] = [];
    for (const listener of this.listeners) {
      try {
        const result = listener(event);
        if (result) pending.push(Promise.resolve(result).catch((error: unknown) => this.report(event, error)));
      } catch (error) {
        this.report(event, error);
      }
    }
    await Promise.all(pending);
  }

  private report(event: AgentSessionEvent, error: unknown): void {
    this.warn(`zi: a listener failed on ${event.type}: ${oneLine(error)}`);
  }
}
