import type { AgentSessionEvent, SessionEventListener, SessionState } from "../wire/session-types.js";

interface QueuedEvent {
  event: AgentSessionEvent;
  /** The state right after the change this event announces. */
  state: SessionState;
  delivered: () => void;
}

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";

/**
 * The one ordered path of session events. Events reach listeners in emit order; when a listener
 * returns a promise, later events wait for it (output backpressure), and the promise returned by
 * `emit` resolves only once its event was accepted, so a producer that awaits it runs no faster
 * than the slowest listener. Synchronous producers (admission) may emit without awaiting: their
 * events queue behind the blocked one and keep their order.
 *
 * Every event is stamped with the state snapshot taken when it was emitted (right after the change
 * it announces). While events are still queued, `deliveredState` is the snapshot of the event being
 * delivered, so a state read never runs ahead of the events its reader has been handed.
 */
export class SessionEventBus {
  private listeners: SessionEventListener[] = [];
  private readonly queue: QueuedEvent[] = [];
  private draining = false;
  private current: SessionState | undefined;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly snapshot: () => SessionState,
    private readonly warn: (message: string) => void,
  ) {}

  subscribe(listener: SessionEventListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((candidate) => candidate !== listener);
    };
  }

  /** The state as of the event being delivered, or undefined when no delivery is in progress. */
  get deliveredState(): SessionState | undefined {
    return this.draining ? this.current : undefined;
  }

  emit(event: AgentSessionEvent): Promise<void> {
    return new Promise<void>((delivered) => {
      this.queue.push({ event, state: this.snapshot(), delivered });
      if (!this.draining) void this.drain();
    });
  }

  /** Resolves once every event emitted so far has been accepted by the listeners. */
  whenDrained(): Promise<void> {
    if (!this.draining) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const next = this.queue.shift()!;
        this.current = next.state;
        const pending = this.deliver(next.event);
        if (pending) await pending;
        next.delivered();
      }
    } finally {
      this.draining = false;
      this.current = undefined;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private deliver(event: AgentSessionEvent): Promise<unknown> | undefined {
    let pending: Promise<unknown>[] | undefined;
    for (const listener of this.listeners) {
      try {
        const result = listener(event);
        if (isPromise(result)) (pending ??= []).push(result.catch((error: unknown) => this.report(event, error)));
      } catch (error) {
        this.report(event, error);
      }
    }
    if (!pending) return undefined;
    return pending.length === 1 ? pending[0] : Promise.all(pending);
  }

  private report(event: AgentSessionEvent, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.warn(`a session event listener failed on ${event.type}: ${reason}`);
  }
}
