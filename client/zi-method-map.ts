/**
 * Types only: every method Zi serves, derived from the same family lists the server composes
 * (methods/builtin-families.ts and plugins/builtin-plugins.ts), so a new family appears here by itself.
 */
import type { MethodMapOf } from "../core/kernel/method-map.js";
import type { BUILTIN_FAMILIES } from "../methods/builtin-families.js";
import type { builtinPlugins } from "../plugins/builtin-plugins.js";

type PluginFamily<P> = P extends { readonly families: readonly (infer F)[] } ? F : never;
type ZiFamily = (typeof BUILTIN_FAMILIES)[number] | PluginFamily<ReturnType<typeof builtinPlugins>[number]>;

export type ZiMethodMap = MethodMapOf<ZiFamily>;
