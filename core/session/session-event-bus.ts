import type { AgentSessionEvent, SessionEventListener, SessionState } from "../wire/session-types.js";

interface QueuedEvent {
  event: AgentSessionEvent;
  /** The state right after the change this event announces. */
  state: SessionState;
  delivered: () => void;
}

const ACCEPTED: Promise<void> = Promise.resolve();

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
    try {
      return this.offer(event) ?? ACCEPTED;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * `emit` for a producer on a hot path (the streamed deltas): undefined when the event was accepted
   * at once (no listener blocked, none was blocking before), so that no promise is made and awaited
   * per event; else the promise of its acceptance, as `emit` returns it.
   */
  offer(event: AgentSessionEvent): Promise<void> | undefined {
    if (this.draining) return new Promise<void>((delivered) => this.queue.push({ event, state: this.snapshot(), delivered }));
    const state = this.snapshot();
    this.draining = true;
    this.current = state;
    const pending = this.deliver(event);
    if (pending) return new Promise<void>((delivered) => void this.drain(pending, delivered));
    // A listener may have emitted meanwhile: those events queued behind this one.
    if (this.queue.length > 0) void this.drain();
    else this.idle();
    return undefined;
  }

  /** Resolves once every event emitted so far has been accepted by the listeners. */
  whenDrained(): Promise<void> {
    if (!this.draining) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Delivers the queue in order (after `first`, the one in delivery, is accepted), then goes idle. */
  private async drain(first?: Promise<unknown>, firstDelivered?: () => void): Promise<void> {
    try {
      if (first) {
        await first;
        firstDelivered!();
      }
      while (this.queue.length > 0) {
        const next = this.queue.shift()!;
        this.current = next.state;
        const pending = this.deliver(next.event);
        if (pending) await pending;
        next.delivered();
      }
    } finally {
      this.idle();
    }
  }

  private idle(): void {
    this.draining = false;
    this.current = undefined;
    const waiters = this.idleWaiters;
    if (waiters.length === 0) return;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
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
