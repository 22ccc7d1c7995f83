// Decorator metadata must be readable before any handler class is resolved; a test file that
// forgets this import would otherwise fail with a confusing tsyringe error.
import "reflect-metadata";
import { container, type InjectionToken } from "tsyringe";
import { getRpcMethodMetadata } from "../kernel/rpc-method.decorator.js";

/** Instances to bind, keyed by injection token: string keys and symbol keys (`[SESSION]: fake`) alike. */
export type HandlerInstances = { readonly [token: string | symbol]: unknown };

/**
 * Resolves a method's handler for a unit test from a fresh child container holding only `instances`,
 * so fakes never leak between tests and a token nobody bound fails here, as it would at boot.
 */
export function resolveHandler<T extends object>(method: new (...args: any[]) => T, instances: HandlerInstances = {}): T {
  if (!getRpcMethodMetadata(method)) throw new Error(`${method.name} has no @RpcMethod decorator`);
  const child = container.createChildContainer();
  // Reflect.ownKeys, unlike Object.keys or Object.entries, also yields symbol-keyed tokens.
  for (const token of Reflect.ownKeys(instances)) {
    child.registerInstance(token as InjectionToken<unknown>, instances[token as keyof HandlerInstances]);
  }
  return child.resolve(method);
}
