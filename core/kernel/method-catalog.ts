import type { HandlerClass, MethodFamily } from "./method-family.js";
import { getRpcMethodMetadata } from "./rpc-method.decorator.js";
import type { RpcMethodMetadata } from "./rpc-method-metadata.js";

/** One method of the composed table, with the family that declared it. */
export interface CatalogMethod extends RpcMethodMetadata {
  readonly family: MethodFamily;
  readonly handlerClass: HandlerClass;
}

/**
 * Composes families into the method table and checks every structural rule: later families with
 * `replaces: true` take an earlier family's place (any other repeat is an error), every class has
 * @RpcMethod with a summary and a result, its name matches its key and its family's prefix, and no
 * name appears twice. The registry (which then resolves handlers) and `zi schema` both start here, so
 * they can never describe different tables.
 */
export function composeMethods(families: readonly MethodFamily[]): CatalogMethod[] {
  const methods: CatalogMethod[] = [];
  const names = new Set<string>();
  for (const family of composeFamilies(families)) {
    for (const [key, handlerClass] of Object.entries(family.methods)) {
      const metadata = getRpcMethodMetadata(handlerClass);
      if (!metadata) throw new Error(`${handlerClass.name} in family "${family.family}" has no @RpcMethod decorator`);
      const { name } = metadata;
      if (name !== key) throw new Error(`family "${family.family}" lists ${handlerClass.name} as "${key}" but its @RpcMethod says "${name}"`);
      if (!name.startsWith(`${family.family}.`) || name.length <= family.family.length + 1) {
        throw new Error(`method "${name}" is outside its family's prefix "${family.family}."`);
      }
      if (names.has(name)) throw new Error(`method "${name}" is registered twice`);
      if (!metadata.summary.trim()) throw new Error(`method "${name}" has no summary`);
      if (typeof metadata.result !== "object" || metadata.result === null) throw new Error(`method "${name}" declares no result schema`);
      names.add(name);
      methods.push({ ...metadata, family, handlerClass });
    }
  }
  return methods;
}

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
