import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { EVENT_MODE } from "../../core/kernel/kernel-ports.js";
import type { EventMode } from "../../core/kernel/event-mode.js";
import { SetEventsParams } from "./set-events.params.js";
import { closed } from "../../core/wire/json-schema.js";

/** Applied synchronously during admission: events produced after this request see the new mode. */
@RpcMethod("connection.set_events", {
  params: SetEventsParams,
  summary: "Sets the connection's event mode (default `all`); `none` suppresses only session_event frames.",
  result: closed({ mode: { enum: ["all", "none"] } }),
})
export class SetEventsMethod implements RpcHandler<SetEventsParams> {
  constructor(@inject(EVENT_MODE) private readonly eventMode: EventMode) {}

  handle(params: SetEventsParams) {
    this.eventMode.current = params.mode ?? "all";
    return { mode: this.eventMode.current };
  }
}
