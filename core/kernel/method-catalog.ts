import { loadedClass, type LazyMethod } from "./lazy-method.js";
import type { HandlerClass, MethodFamily } from "./method-family.js";
import { declaresAdmission, getRpcMethodDeclaration } from "./rpc-method.decorator.js";
import { admissionOf, type RpcMethodMetadata } from "./rpc-method-metadata.js";

/** One name of the composed table, with the family that declared it and its entry (a class or a LazyMethod). */
export interface TableEntry {
  readonly name: string;
  readonly family: MethodFamily;
  readonly entry: HandlerClass | LazyMethod;
}

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
 * handlers) and `zi schema` both start here, so they can never describe different tables. Every
 * lazily listed class must be loaded first (`loadMethodClasses`).
 */
export function composeMethods(families: readonly MethodFamily[]): CatalogMethod[] {
  const methods = composeTable(families).map((entry) => {
    const handlerClass = loadedClass(entry.entry);
    if (!handlerClass) throw new Error(`method "${entry.name}" is listed lazily and its class is not loaded`);
    return declareMethod(entry, handlerClass);
  });
  checkOneNameEach(methods);
  return methods;
}

/**
 * The rules a table obeys before any class is seen (the registry checks these at boot, lazy entries or
 * not): families and their replacements, each name inside its family's prefix and listed once.
 */
export function composeTable(families: readonly MethodFamily[]): TableEntry[] {
  const entries: TableEntry[] = [];
  const names = new Set<string>();
  for (const family of applyReplacements(families)) {
    for (const [name, entry] of Object.entries(family.methods)) {
      if (!name.startsWith(`${family.family}.`) || name.length <= family.family.length + 1) {
        throw new Error(`method "${name}" is outside its family's prefix "${family.family}."`);
      }
      if (names.has(name)) throw new Error(`method "${name}" is registered twice`);
      names.add(name);
      entries.push({ name, family, entry });
    }
  }
  return entries;
}

/** A table entry's whole contract: its class's @RpcMethod, with the admission flags of a lazy entry. */
export function declareMethod(entry: TableEntry, handlerClass: HandlerClass): CatalogMethod {
  const { name, family } = entry;
  const declaration = getRpcMethodDeclaration(handlerClass);
  if (!declaration) throw new Error(`${handlerClass.name} ("${name}" in family "${family.family}") has no @RpcMethod decorator`);
  if (!declaration.summary.trim()) throw new Error(`method "${name}" has no summary`);
  if (typeof declaration.result !== "object" || declaration.result === null) throw new Error(`method "${name}" declares no result schema`);
  if (declaration.rehearsal !== undefined && declaration.params === undefined) throw new Error(`method "${name}" declares a rehearsal but takes no params`);
  if (typeof entry.entry === "function") return { ...declaration, name, family, handlerClass };
  if (declaresAdmission(handlerClass)) throw new Error(`method "${name}" is listed lazily: its slot, concurrent and awaitsStartup belong in its table entry, not in ${handlerClass.name}'s @RpcMethod`);
  return { ...declaration, ...admissionOf(entry.entry.flags), name, family, handlerClass };
}

/** No class serves two names. */
export function checkOneNameEach(methods: readonly CatalogMethod[]): void {
  const classes = new Map<HandlerClass, string>();
  for (const { name, handlerClass } of methods) {
    const other = classes.get(handlerClass);
    if (other !== undefined) throw new Error(`${handlerClass.name} is listed as both "${other}" and "${name}": one class per method`);
    classes.set(handlerClass, name);
  }
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
