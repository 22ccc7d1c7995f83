/**
 * Types only: every method Zi serves, derived from the same family lists the server composes
 * (methods/builtin-families.ts, and plugins/builtin-plugin-families.ts, which plugins/builtin-plugins.ts
 * is checked against), so a new family appears here by itself. Only family lists are imported, never the
 * plugin objects: the published declarations must reach Zi's own types alone (test/e2e/client-declarations).
 */
import type { MethodMapOf } from "../core/kernel/method-map.js";
import type { BUILTIN_FAMILIES } from "../methods/builtin-families.js";
import type { BuiltinPluginFamily } from "../plugins/builtin-plugin-families.js";

type ZiFamily = (typeof BUILTIN_FAMILIES)[number] | BuiltinPluginFamily;

export type ZiMethodMap = MethodMapOf<ZiFamily>;
