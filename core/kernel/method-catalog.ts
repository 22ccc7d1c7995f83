import type { HandlerClass, MethodFamily } from "./method-family.js";
import { getRpcMethodDeclaration } from "./rpc-method.decorator.js";
import type { RpcMethodMetadata } from "./rpc-method-metadata.js";

/** One method of the composed table, with the family that declared it. */
export interface CatalogMethod extends RpcMethodMetadata {
  readonly family: MethodFamily;
  readonly handlerClass: HandlerClass;
}

/**
 * Composes families into the method table and checks every structural rule: later families with
 * `replaces: true` take an earlier family's place (any other repeat is an error), every class has
 * @RpcMethod with a summary and a result, each name (the key in its family's table) is inside its
 * family's prefix and appears once, and no class serves two names. The registry (which then resolves
 * handlers) and `zi schema` both start here, so they can never describe different tables.
 */
export function composeMethods(families: readonly MethodFamily[]): CatalogMethod[] {
  const methods: CatalogMethod[] = [];
  const names = new Set<string>();
  const classes = new Map<HandlerClass, string>();
  for (const family of applyReplacements(families)) {
    for (const [name, handlerClass] of Object.entries(family.methods)) {
      const declaration = getRpcMethodDeclaration(handlerClass);
      if (!declaration) throw new Error(`${handlerClass.name} ("${name}" in family "${family.family}") has no @RpcMethod decorator`);
      if (!name.startsWith(`${family.family}.`) || name.length <= family.family.length + 1) {
        throw new Error(`method "${name}" is outside its family's prefix "${family.family}."`);
      }
      if (names.has(name)) throw new Error(`method "${name}" is registered twice`);
      const other = classes.get(handlerClass);
      if (other !== undefined) throw new Error(`${handlerClass.name} is listed as both "${other}" and "${name}": one class per method`);
      if (!declaration.summary.trim()) throw new Error(`method "${name}" has no summary`);
      if (typeof declaration.result !== "object" || declaration.result === null) throw new Error(`method "${name}" declares no result schema`);
      names.add(name);
      classes.set(handlerClass, name);
      methods.push({ ...declaration, name, family, handlerClass });
    }
  }
  return methods;
}

/** The families that remain once each `replaces: true` family has taken its namesake's place. */
function applyReplacements(families: readonly MethodFamily[]): MethodFamily[] {
  const byName = new Map<string, MethodFamily>();
  for (const family of families) {
    const earlier = byName.get(family.family);
    if (earlier && !family.replaces) throw new Error(`method family "${family.family}" is registered twice`);
    if (!earlier && family.replaces) throw new Error(`method family "${family.family}" replaces nothing`);
    byName.set(family.family, family);
  }
  return [...byName.values()];
}
