import type { DependencyContainer } from "tsyringe";
import type { LazyMethod } from "./lazy-method.js";
import type { RpcHandler } from "./rpc-handler.js";

export type HandlerClass = new (...args: any[]) => RpcHandler;

/**
 * A method family: every method named `<family>.<verb>`, one class each. `methods` is the family's one
 * table of names: a method's name is written here and nowhere else (its class's @RpcMethod carries
 * the rest of its contract), and the typed client's method map is derived from these keys. An entry is
 * the class itself, or a `LazyMethod` (`lazy(...)`) that imports it on the method's first call. Declare a
 * family with `satisfies MethodFamily` so its keys stay literal types.
 */
export interface MethodFamily {
  readonly family: string;
  readonly methods: Readonly<Record<string, HandlerClass | LazyMethod>>;
  /** When true, this family takes the place of an earlier family with the same name. */
  readonly replaces?: boolean;
  /**
   * Binds what the family's handlers need that the host does not provide (its own services, port
   * adapters). `scope` is the family's own child container: its bindings are visible to its handlers
   * only, and the host's ports come from the parent.
   */
  register?(scope: DependencyContainer): void;
}
