import type { DependencyContainer } from "tsyringe";
import type { MethodFamily } from "./method-family.js";
import { getRpcMethodMetadata } from "./rpc-method.decorator.js";
import type { RpcMethodMetadata } from "./rpc-method-metadata.js";
import type { RpcHandler } from "./rpc-handler.js";
import { ParamsValidator } from "./params-validator.js";

export interface RegisteredMethod extends RpcMethodMetadata {
  readonly handler: RpcHandler;
}

/**
 * The method table of one connection, built once at boot from the composed families. Every handler is
 * resolved eagerly, so wrong wiring (a duplicate name, a method outside its family, a class without
 * @RpcMethod, an unbound port, a DTO without rules) fails here, before `ready`, never on a request.
 */
export class MethodRegistry {
  private constructor(
    private readonly methods: ReadonlyMap<string, RegisteredMethod>,
    readonly params: ParamsValidator,
  ) {}

  static build(container: DependencyContainer, families: readonly MethodFamily[]): MethodRegistry {
    const params = new ParamsValidator();
    const methods = new Map<string, RegisteredMethod>();
    for (const family of composeFamilies(families)) {
      family.register?.(container);
      for (const method of family.methods) {
        const metadata = getRpcMethodMetadata(method);
        if (!metadata) throw new Error(`${method.name} in family "${family.family}" has no @RpcMethod decorator`);
        if (!metadata.name.startsWith(`${family.family}.`) || metadata.name.length <= family.family.length + 1) {
          throw new Error(`method "${metadata.name}" is outside its family's prefix "${family.family}."`);
        }
        if (methods.has(metadata.name)) throw new Error(`method "${metadata.name}" is registered twice`);
        if (metadata.params) params.prepare(metadata.params);
        methods.set(metadata.name, { ...metadata, handler: resolveHandler(container, method, metadata.name) });
      }
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

/** Later families with `replaces: true` take an earlier family's place; any other repeat is an error. */
function composeFamilies(families: readonly MethodFamily[]): MethodFamily[] {
  const byName = new Map<string, MethodFamily>();
  for (const family of families) {
    const earlier = byName.get(family.family);
    if (earlier && !family.replaces) throw new Error(`method family "${family.family}" is registered twice`);
    if (!earlier && family.replaces) throw new Error(`method family "${family.family}" replaces nothing`);
    byName.set(family.family, family);
  }
  return [...byName.values()];
}

function resolveHandler(container: DependencyContainer, method: MethodFamily["methods"][number], name: string): RpcHandler {
  try {
    const handler = container.resolve(method);
    if (typeof handler.handle !== "function") throw new Error("it has no handle() method");
    return handler;
  } catch (error) {
    throw new Error(`cannot wire method "${name}" (${method.name}): ${(error as Error).message}`);
  }
}
