import type { AgentSessionEvent } from "../wire/session-types.js";

/**
 * The narrow view the interactive mode has of Zi: protocol methods by name and the session's events.
 * Everything the UI does goes through here, so it is something an RPC client could do too.
 */
export interface SessionClient {
  /** A protocol method; rejects with `{ code, message }` as the protocol answers it. */
  call<T = any>(method: string, params?: object): Promise<T>;
  /** Every `session_event`, in order; returns the unsubscribe. */
  onEvent(listener: (event: AgentSessionEvent) => void): () => void;
  /** The `ready` frame's state. */
  readonly ready: Promise<{ state: any; limits: any }>;
  /** Ends the connection (as a closed stdin does) and resolves with the server's exit code. */
  close(): Promise<number>;
}

/** An error answer: the protocol's code and message. */
export class SessionCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
