import type { DependencyContainer } from "tsyringe";
import { composeMethods, type CatalogMethod } from "./method-catalog.js";
import type { MethodFamily } from "./method-family.js";
import type { RpcMethodMetadata } from "./rpc-method-metadata.js";
import type { RpcHandler } from "./rpc-handler.js";
import { ParamsValidator } from "./params-validator.js";

export interface RegisteredMethod extends RpcMethodMetadata {
  readonly handler: RpcHandler;
}

/**
 * The method table of one connection, built once at boot from the composed families. Each family gets
 * its own child scope (its `register` bindings reach its own handlers only), and every handler is
 * resolved eagerly, once, so wrong wiring (a duplicate name, a method outside its family, a class
 * without @RpcMethod, an unbound port, a DTO without rules) fails here, before any request is admitted.
 */
export class MethodRegistry {
  private constructor(
    private readonly methods: ReadonlyMap<string, RegisteredMethod>,
    readonly params: ParamsValidator,
  ) {}

  static build(container: DependencyContainer, families: readonly MethodFamily[]): MethodRegistry {
    const params = new ParamsValidator();
    const methods = new Map<string, RegisteredMethod>();
    const scopes = new Map<MethodFamily, DependencyContainer>();
    for (const method of composeMethods(families)) {
      let scope = scopes.get(method.family);
      if (!scope) {
        scope = container.createChildContainer();
        method.family.register?.(scope);
        scopes.set(method.family, scope);
      }
      if (method.params) params.prepare(method.params);
      const { family: _family, handlerClass: _class, ...metadata } = method;
      methods.set(method.name, { ...metadata, handler: resolveHandler(scope, method) });
    }
    return new MethodRegistry(methods, params);
  }

  get(name: string): RegisteredMethod | undefined {
    return this.methods.get(name);
  }

  names(): string[] {
    return [...this.methods.keys()];
  }
}

function resolveHandler(scope: DependencyContainer, method: CatalogMethod): RpcHandler {
  try {
    const handler = scope.resolve(method.handlerClass);
    if (typeof handler.handle !== "function") throw new Error("it has no handle() method");
    return handler;
  } catch (error) {
    throw new Error(`cannot wire method "${method.name}" (${method.handlerClass.name}): ${(error as Error).message}`);
  }
}
