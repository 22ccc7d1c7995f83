import type { RequestContext } from "../kernel/rpc-handler.js";

/** The `context` argument of `handle(params, context)` for a unit test; the signal never fires unless given. */
export function requestContext(overrides: Partial<RequestContext> = {}): RequestContext {
  return { id: "test-1", method: "test.method", signal: new AbortController().signal, ...overrides };
}
