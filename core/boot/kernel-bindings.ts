import { EventMode } from "../kernel/event-mode.js";
import type { CancellationPort, EventStreamPort, StateSnapshotPort } from "../kernel/kernel-ports.js";
import type { SessionModule } from "./session-module.js";

export interface KernelBindings {
  eventMode: EventMode;
  state: StateSnapshotPort;
  events: EventStreamPort;
  cancellation: CancellationPort;
}

/** The kernel ports over one session module: the same for an RPC connection and an in-process client. */
export function kernelBindings(module: SessionModule): KernelBindings {
  return {
    eventMode: new EventMode(),
    state: { snapshot: () => module.session.getState() },
    events: { subscribe: (listener) => module.events.subscribe(listener) },
    cancellation: { cancel: () => module.cancel() },
  };
}
