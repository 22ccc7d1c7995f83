import type { AgentSessionEvent } from "../wire/session-types.js";

/**
 * What the pi-RPC front end needs of Zi: call a method by name through the registry RPC mode serves
 * (same handlers, same params validation and bounds) and follow the session's event stream. Failures
 * are thrown as RpcError with Zi's code and a client-safe message. The front end reaches nothing else.
 */
export interface ZiMethods {
  call<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Events in source order. A listener's returned promise makes the producer wait (backpressure). */
  onEvent(listener: (event: AgentSessionEvent) => void | Promise<void>): () => void;
  /** Whether the registry serves `method` (a plugin's family may be absent). */
  has(method: string): boolean;
}
