/** What a handler sees of the request besides its params. */
export interface RequestContext {
  readonly id: string;
  readonly method: string;
  /** Aborted when the connection gives up on the request (shutdown past the settlement bound). */
  readonly signal: AbortSignal;
}

/** One RPC method. Return the result (a JSON object) or throw RpcError. */
export interface RpcHandler<P = any, R = unknown> {
  handle(params: P, context: RequestContext): R | Promise<R>;
}
