// tsyringe refuses to load without the Reflect polyfill: with this import first, a test that imports
// `zi/testing` before its handler classes needs no `import "reflect-metadata"` of its own (plain Node ESM).
import "reflect-metadata";
import { container, type InjectionToken } from "tsyringe";

/** Instances to bind, keyed by injection token: string keys and symbol keys (`[SESSION]: fake`) alike. */
export type HandlerInstances = { readonly [token: string | symbol]: unknown };

/**
 * Resolves a method's handler for a unit test from a fresh child container holding only `instances`,
 * so fakes never leak between tests and a token nobody bound fails here, as it would at boot. It
 * does not look for `@RpcMethod` (the registry checks that at boot): the decorator's record is private
 * to the module instance that applied it, and a test may load Zi's kernel from source and this helper
 * from the build.
 */
export function resolveHandler<T extends object>(method: new (...args: any[]) => T, instances: HandlerInstances = {}): T {
  const child = container.createChildContainer();
  // Reflect.ownKeys, unlike Object.keys or Object.entries, also yields symbol-keyed tokens.
  for (const token of Reflect.ownKeys(instances)) {
    child.registerInstance(token as InjectionToken<unknown>, instances[token as keyof HandlerInstances]);
  }
  return child.resolve(method);
}
