import type { AgentSessionEvent } from "../../core/wire/session-types.js";

/**
 * A partial fixture, or an event of a type Zi does not emit (yet), as the typed union: for tests of a
 * consumer's fallbacks, which the union keeps real producers from reaching. Never for real events.
 */
export const looseEvent = (event: { type: string } & Record<string, unknown>): AgentSessionEvent => event as unknown as AgentSessionEvent;
