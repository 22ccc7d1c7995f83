import { EVENT_MODE, RpcMethod, closed, inject, literal, type EventMode, type RpcHandler } from "../../core/family/family-api.js";
import { SetEventsParams } from "./set-events.params.js";

/** Applied synchronously during admission: events produced after this request see the new mode. */
@RpcMethod({
  params: SetEventsParams,
  summary: "Sets the connection's event mode (default `all`); `none` suppresses only session_event frames.",
  result: closed({ mode: literal("all", "none") }),
})
export class SetEventsMethod implements RpcHandler<SetEventsParams> {
  constructor(@inject(EVENT_MODE) private readonly eventMode: EventMode) {}

  handle(params: SetEventsParams) {
    this.eventMode.current = params.mode ?? "all";
    return { mode: this.eventMode.current };
  }
}
