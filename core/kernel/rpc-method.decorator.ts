import { injectable } from "tsyringe";
import { admissionOf, type RpcMethodDeclaration, type RpcMethodOptions } from "./rpc-method-metadata.js";
import type { RequestContext } from "./rpc-handler.js";

// Process-wide: a family compiled from source and a kernel loaded from the build (a script run from the
// repository that imports `zi/testing`) must agree on what is a method.
const DECLARATIONS: WeakMap<Function, RpcMethodDeclaration> = ((globalThis as Record<symbol, unknown>)[Symbol.for("zi.rpc-method.declarations")] ??= new WeakMap()) as WeakMap<Function, RpcMethodDeclaration>;

// The classes whose @RpcMethod gives an admission flag (slot, concurrent, awaitsStartup): a class listed
// as a LazyMethod must not, its table entry says them (the catalog checks).
const DECLARES_ADMISSION: WeakSet<Function> = ((globalThis as Record<symbol, unknown>)[Symbol.for("zi.rpc-method.declares-admission")] ??= new WeakSet()) as WeakSet<Function>;

/** A class whose `handle` takes the params DTO `P` and returns (or resolves to) the result type `R`. */
type HandlerOf<P, R> = new (...args: any[]) => { handle(params: P, context: RequestContext): R | Promise<R> };

/**
 * Marks a class as the handler of one RPC method, with its contract: params DTO, typed result schema,
 * summary and admission flags. The method's name is its key in its family's `methods` table, written
 * there once. The compiler checks `handle()` against the result schema's type: a handler returning
 * something else does not compile (TS1238/TS1270 on the decorator, naming the mismatch). The class
 * is also made injectable (its constructor parameters are resolved from its family's scope), but
 * nothing is registered globally: the MethodRegistry decides at boot what is wired.
 */
export function RpcMethod<P extends object = object, R = unknown>(options: RpcMethodOptions<P, R>) {
  return <C extends HandlerOf<P, R>>(target: C): C => {
    if (DECLARATIONS.has(target)) throw new Error(`@RpcMethod applied twice to ${target.name}`);
    DECLARATIONS.set(target, {
      params: options.params,
      result: options.result,
      summary: options.summary,
      errors: options.errors ?? [],
      rehearsal: options.rehearsal,
      ...admissionOf(options),
    });
    if (options.slot !== undefined || options.concurrent !== undefined || options.awaitsStartup !== undefined) DECLARES_ADMISSION.add(target);
    injectable()(target);
    return target;
  };
}

export function getRpcMethodDeclaration(target: Function): RpcMethodDeclaration | undefined {
  return DECLARATIONS.get(target);
}

/** True when the class's @RpcMethod gives any admission flag itself. */
export function declaresAdmission(target: Function): boolean {
  return DECLARES_ADMISSION.has(target);
}
