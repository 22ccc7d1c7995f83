import type { MethodFamily } from "../kernel/method-family.js";
import type { ZiPlugin } from "./zi-plugin.js";

/**
 * The list of families a Zi serves: the built-in families, then each plugin's families in plugin order.
 * Only a list: the kernel's method catalog applies it (a plugin family with `replaces: true` takes
 * the place of the built-in or earlier family of the same name), so plugins never need a kernel change.
 */
export function withPluginFamilies(builtin: readonly MethodFamily[], plugins: readonly ZiPlugin[]): MethodFamily[] {
  return [...builtin, ...plugins.flatMap((plugin) => plugin.families ?? [])];
}
