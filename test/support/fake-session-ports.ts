import type { CancellationPort, EventStreamPort, StateSnapshotPort } from "../../core/kernel/kernel-ports.js";

/** Stands in for the session behind the kernel: a state object, an event source, a cancel hook. */
export class FakeSessionPorts implements StateSnapshotPort, EventStreamPort, CancellationPort {
  state: object = { sessionId: "s-1", activity: { type: "idle" } };
  cancelled = 0;
  cancelDelayMs = 0;
  private listeners: ((event: object) => void | Promise<void>)[] = [];

  snapshot(): object {
    return this.state;
  }

  subscribe(listener: (event: object) => void | Promise<void>): () => void {
    this.listeners.push(listener);
    return () => (this.listeners = this.listeners.filter((l) => l !== listener));
  }

  /** Emits like a producer that honours backpressure: resolves when every listener accepted it. */
  async emit(event: object): Promise<void> {
    for (const listener of this.listeners) await listener(event);
  }

  async cancel(): Promise<void> {
    this.cancelled++;
    if (this.cancelDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.cancelDelayMs));
  }
}
