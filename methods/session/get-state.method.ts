import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { SESSION, type SessionPort } from "../../core/ports/session.port.js";
import { ref } from "../../core/wire/json-schema.js";

@RpcMethod("session.get_state", {
  summary: "The current session snapshot (the same object `ready.state` carries).",
  result: ref("SessionState"),
})
export class GetStateMethod implements RpcHandler {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle() {
    return this.session.getState();
  }
}
