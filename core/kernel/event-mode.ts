export type EventModeName = "all" | "none";

/**
 * The connection-owned event mode. `connection.set_events` flips it synchronously during admission, so
 * every event produced after that request was admitted sees the new mode.
 */
export class EventMode {
  current: EventModeName = "all";
}
