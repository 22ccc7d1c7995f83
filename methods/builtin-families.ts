import type { MethodFamily } from "../core/family/family-api.js";
import { commandFamily } from "./command/command.family.js";
import { connectionFamily } from "./connection/connection.family.js";
import { modelFamily } from "./model/model.family.js";
import { sessionFamily } from "./session/session.family.js";
import { thinkingFamily } from "./thinking/thinking.family.js";

/**
 * The families every Zi connection starts with, in one list: adding a family is one line here (plugins
 * add theirs through plugins/builtin-plugins.ts). The typed client's method map is derived from it.
 */
export const BUILTIN_FAMILIES = [connectionFamily, sessionFamily, modelFamily, thinkingFamily, commandFamily] as const satisfies readonly MethodFamily[];
