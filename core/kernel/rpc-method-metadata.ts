import type { JsonSchema } from "../wire/json-schema.js";
import type { OperationErrorCode } from "./rpc-error.js";

export type ParamsClass = new () => object;

/** A method's whole contract, declared on its class with @RpcMethod. */
export interface RpcMethodOptions {
  /** class-validator DTO for `params`; omit for a method that takes none. */
  params?: ParamsClass;
  /** JSON Schema of the result; `$ref`s point at the wire definitions (core/wire/wire-schemas.ts). */
  result: JsonSchema;
  /** One sentence for `zi schema` and the docs. */
  summary: string;
  /** Response codes this method answers besides `capacity` and `operation_failed`, which any may. */
  errors?: readonly OperationErrorCode[];
  /** `interrupt` may use the reserved slot when the ordinary slots are full. */
  slot?: "ordinary" | "interrupt";
  /**
   * A waiting handler (await_idle, interrupt, command.invoke) does not hold up admission: later requests
   * are admitted while it waits, and its response may overtake theirs. Every other handler is ordered:
   * its response is written before the next request is admitted.
   */
  waits?: boolean;
  /**
   * The handler needs the deferred startup (whatever the composition root starts after `ready`) to have
   * finished. Admission holds at such a request until it has: nothing after it is admitted meanwhile,
   * so input order is kept. Every other method is admitted at once, startup or not.
   */
  awaitsStartup?: boolean;
}

export interface RpcMethodMetadata {
  name: string;
  params: ParamsClass | undefined;
  result: JsonSchema;
  summary: string;
  errors: readonly OperationErrorCode[];
  slot: "ordinary" | "interrupt";
  waits: boolean;
  awaitsStartup: boolean;
}
