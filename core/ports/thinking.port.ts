import type { ThinkingLevel, ThinkingList, ThinkingSelection } from "../wire/session-types.js";

export const THINKING = Symbol.for("zi.port.thinking");

/** What `thinking.*` methods need. A level the model lacks is clamped; `scope` persists it. */
export interface ThinkingPort {
  list(): ThinkingList;
  select(level: ThinkingLevel, scope: "global" | "project" | undefined): Promise<ThinkingSelection>;
}
