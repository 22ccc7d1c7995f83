import type { ModelPort } from "../ports/model.port.js";
import type { SessionPort } from "../ports/session.port.js";
import type { ThinkingPort } from "../ports/thinking.port.js";

/** Everything the RPC application needs from the domain below it, created once per process. */
export interface SessionModule {
  readonly session: SessionPort;
  readonly models: ModelPort;
  readonly thinking: ThinkingPort;
  /** Called once `ready` has been written: deferred startup work. */
  afterReady(): void;
  /** The client disconnected: discard queued input and interrupt active work, resolving once settled. */
  cancel(): Promise<void>;
  /** Releases files and providers; the CLI calls it after the connection has settled. */
  dispose(): Promise<void>;
}
