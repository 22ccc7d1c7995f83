export type ParamsClass = new () => object;

export interface RpcMethodOptions {
  /** class-validator DTO for `params`; omit for a method that takes none. */
  params?: ParamsClass;
  /** `interrupt` may use the reserved slot when the ordinary slots are full. */
  slot?: "ordinary" | "interrupt";
  /**
   * A waiting handler (await_idle, interrupt, command.invoke) does not hold up admission: later requests
   * are admitted while it waits, and its response may overtake theirs. Every other handler is ordered:
   * its response is written before the next request is admitted.
   */
  waits?: boolean;
}

export interface RpcMethodMetadata {
  name: string;
  params: ParamsClass | undefined;
  slot: "ordinary" | "interrupt";
  waits: boolean;
}
