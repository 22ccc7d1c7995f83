/**
 * The kernel's view of whatever serves behind it. It knows no session types: the composition root binds
 * these to the AgentSession (or to anything else that can answer them).
 */
export interface StateSnapshotPort {
  /** The object sent as `ready.state`. */
  snapshot(): object;
}

export interface EventStreamPort {
  /** Source-ordered events. Returning a promise from the listener makes the producer wait. */
  subscribe(listener: (event: object) => void | Promise<void>): () => void;
}

export interface CancellationPort {
  /** Interrupt active work because the client disconnected; resolves when it has settled. */
  cancel(): Promise<void>;
}

export const STATE_SNAPSHOT = Symbol.for("zi.kernel.state-snapshot");
export const EVENT_STREAM = Symbol.for("zi.kernel.event-stream");
export const CANCELLATION = Symbol.for("zi.kernel.cancellation");
export const EVENT_MODE = Symbol.for("zi.kernel.event-mode");
