/** What a handler sees of the request besides its params. */
export interface RequestContext {
  readonly id: string;
  readonly method: string;
  /**
   * Aborted when the connection gives up on a waiting request (shutdown past the settlement bound).
   * Ordered handlers answer before anything else is admitted and get a signal that never fires.
   */
  readonly signal: AbortSignal;
}

/**
 * One RPC method. Return the result (a JSON object) or throw RpcError. A frozen result must be deeply
 * immutable: the connection serialises a frozen object once and reuses the JSON.
 */
export interface RpcHandler<P = any, R = unknown> {
  handle(params: P, context: RequestContext): R | Promise<R>;
}
