import type { MethodFamily } from "../core/kernel/method-family.js";
import { commandFamily } from "./command/command.family.js";
import { connectionFamily } from "./connection/connection.family.js";
import { modelFamily } from "./model/model.family.js";
import { sessionFamily } from "./session/session.family.js";
import { thinkingFamily } from "./thinking/thinking.family.js";

/** The families every Zi connection starts with; plugins may add families or replace these. */
export const BUILTIN_FAMILIES: readonly MethodFamily[] = [connectionFamily, sessionFamily, modelFamily, thinkingFamily, commandFamily];
