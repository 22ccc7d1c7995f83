import type { DependencyContainer } from "tsyringe";
import type { RpcHandler } from "./rpc-handler.js";

export type HandlerClass = new (...args: any[]) => RpcHandler;

/**
 * A method family: every method named `<family>.<verb>`, one class each. `register` binds whatever the
 * family's handlers need that the host does not already provide (its own services, port adapters).
 */
export interface MethodFamily {
  readonly family: string;
  readonly methods: readonly HandlerClass[];
  /** When true, this family takes the place of an earlier family with the same name. */
  readonly replaces?: boolean;
  register?(container: DependencyContainer): void;
}
