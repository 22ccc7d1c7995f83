import type { JsonSchema, Schema } from "../wire/json-schema.js";
import type { OperationErrorCode } from "./rpc-error.js";

export type ParamsClass = new () => object;

/**
 * A method's whole contract but its name, declared on its class with @RpcMethod. The name is written
 * once, as the method's key in its family's `methods` table (method-family.ts).
 */
export interface RpcMethodOptions<P extends object = object, R = unknown> {
  /** class-validator DTO for `params`; omit for a method that takes none. */
  params?: new () => P;
  /**
   * The result's schema, built with the typed helpers of core/wire/json-schema.ts (`closed`, `ref`,
   * ...): `handle()` must return its type (checked by the compiler), and the suite checks real results
   * against it. `ref`s point at the wire definitions (core/wire/wire-schemas.ts).
   */
  result: Schema<R>;
  /** One sentence for `zi schema` and the docs. */
  summary: string;
  /** Response codes this method answers besides `capacity` and `operation_failed`, which any may. */
  errors?: readonly OperationErrorCode[];
  /** `interrupt` may use the reserved slot when the ordinary slots are full. */
  slot?: "ordinary" | "interrupt";
  /**
   * A concurrent handler (await_idle, interrupt, command.invoke: handlers that wait on the session)
   * does not hold the requests behind it: later requests are admitted while it runs, and its response
   * may overtake theirs. Every other handler is ordered: its response is written before the next
   * request is admitted.
   */
  concurrent?: boolean;
  /**
   * The handler needs the deferred startup (whatever the composition root starts after `ready`) to have
   * finished. Admission holds at such a request until it has: nothing after it is admitted meanwhile,
   * so input order is kept. Every other method is admitted at once, startup or not.
   */
  awaitsStartup?: boolean;
  /**
   * Params such a request typically carries, admitted once after the deferred startup and thrown away
   * (`MethodRegistry.rehearseAdmissionsAfter`: no handler runs, nothing is written), so that the first real
   * request's admission does not run its DTO's validation cold. Only for a method with `params`; they
   * must be valid.
   */
  rehearsal?: P;
}

/** What @RpcMethod records; the catalog adds the name from the family's table. */
export interface RpcMethodDeclaration {
  params: ParamsClass | undefined;
  result: JsonSchema;
  summary: string;
  errors: readonly OperationErrorCode[];
  slot: "ordinary" | "interrupt";
  concurrent: boolean;
  awaitsStartup: boolean;
  rehearsal: object | undefined;
}

export interface RpcMethodMetadata extends RpcMethodDeclaration {
  name: string;
}

/** A method's admission flags with their defaults, whether its @RpcMethod or its lazy table entry gives them. */
export function admissionOf(flags: Pick<RpcMethodOptions, "slot" | "concurrent" | "awaitsStartup">): Pick<RpcMethodDeclaration, "slot" | "concurrent" | "awaitsStartup"> {
  return { slot: flags.slot ?? "ordinary", concurrent: flags.concurrent ?? false, awaitsStartup: flags.awaitsStartup ?? false };
}
