/**
 * Types only: the `{ params, result }` map of a set of method families, derived from their handler
 * classes (params from `handle`'s first parameter, the result from what it resolves to). The typed
 * client's method map is this type over the composed families, so it cannot miss a family.
 */
import type { LazyMethod } from "./lazy-method.js";
import type { MethodFamily } from "./method-family.js";

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;
type MethodsOf<F> = F extends { readonly methods: infer M } ? M : never;
type Handle<E> = (E extends LazyMethod<infer C> ? C : E) extends abstract new (...args: any[]) => { handle: infer H } ? H : never;

/** `undefined` for a method that takes no params; optional when every param is. */
export type HandlerParams<C> =
  Handle<C> extends (...args: infer A) => unknown ? (A extends [] ? undefined : {} extends A[0] ? A[0] | undefined : A[0]) : never;
export type HandlerResult<C> = Handle<C> extends (...args: any[]) => infer R ? Awaited<R> : never;

export type MethodMapOf<F extends MethodFamily> = {
  [K in keyof UnionToIntersection<MethodsOf<F>>]: {
    params: HandlerParams<UnionToIntersection<MethodsOf<F>>[K]>;
    result: HandlerResult<UnionToIntersection<MethodsOf<F>>[K]>;
  };
};
