// tsyringe refuses to load without the Reflect polyfill: with this import first, a test that imports
// `zi/testing` before its handler classes needs no `import "reflect-metadata"` of its own (plain Node ESM).
import "reflect-metadata";
import { container, type InjectionToken } from "tsyringe";
import type { TokenInstances } from "../boot/rpc-application.js";
import { getRpcMethodDeclaration } from "../kernel/rpc-method.decorator.js";
import { generateProtocolSchema } from "../schema/protocol-schema.js";
import { SchemaChecker } from "../schema/schema-checker.js";
import type { JsonSchema } from "../wire/json-schema.js";

/** Instances to bind, keyed by injection token: string keys and symbol keys (`[SESSION]: fake`) alike. */
export type HandlerInstances = TokenInstances;

let wireDefs: SchemaChecker | undefined;

/**
 * Resolves a method's handler for a unit test from a fresh child container holding only `instances`,
 * so fakes never leak between tests and a token nobody bound fails here, as it would at boot. The
 * handler's results are checked against the schema its @RpcMethod declares: a result outside it
 * throws, so a handler test cannot pass with a result the protocol does not allow.
 */
export function resolveHandler<T extends object>(method: new (...args: any[]) => T, instances: HandlerInstances = {}): T {
  const child = container.createChildContainer();
  // Reflect.ownKeys, unlike Object.keys or Object.entries, also yields symbol-keyed tokens.
  for (const token of Reflect.ownKeys(instances)) {
    child.registerInstance(token as InjectionToken<unknown>, instances[token as keyof HandlerInstances]);
  }
  const handler = child.resolve(method) as T & { handle?: (...args: unknown[]) => unknown };
  const declared = getRpcMethodDeclaration(method);
  const handle = handler.handle;
  if (declared && typeof handle === "function") {
    const check = (result: unknown): unknown => {
      wireDefs ??= new SchemaChecker(generateProtocolSchema([]) as unknown as JsonSchema);
      const problems = wireDefs.check(declared.result, result);
      if (problems.length > 0) {
        const list = problems.map((problem) => `result${problem.field ? `.${problem.field}` : ""} ${problem.problem}`).join("; ");
        throw new Error(`${method.name} returned a result outside its declared schema: ${list}`);
      }
      return result;
    };
    handler.handle = (...args: unknown[]) => {
      const result = handle.apply(handler, args);
      return result instanceof Promise ? result.then(check) : check(result);
    };
  }
  return handler;
}
