import type { AgentSessionEvent } from "../wire/session-types.js";

/**
 * What the pi-RPC front end needs of Zi, and all it reaches: call a method by name through the registry
 * RPC mode serves (core/shell/method-client.ts: same handlers, validation, bounds and admission order)
 * and follow the session's event stream. Failures are RpcErrors with Zi's codes and client-safe messages.
 */
export interface MethodCalls {
  call<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Events in source order. A listener's returned promise makes the producer wait (backpressure). */
  onEvent(listener: (event: AgentSessionEvent) => void | Promise<void>): () => void;
  /** Whether the registry serves `method` (a plugin's family may be absent). */
  has(method: string): boolean;
}
