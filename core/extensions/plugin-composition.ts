import type { MethodFamily } from "../kernel/method-family.js";
import type { ZiPlugin } from "./zi-plugin.js";

/**
 * The method table's composition: the built-in families, then each plugin's families in plugin order.
 * A plugin family with `replaces: true` takes the place of the built-in (or earlier) family of the same
 * name; the kernel's method catalog enforces the rules, so plugins never need a kernel change.
 */
export function composeFamilies(builtin: readonly MethodFamily[], plugins: readonly ZiPlugin[]): MethodFamily[] {
  return [...builtin, ...plugins.flatMap((plugin) => plugin.families ?? [])];
}
