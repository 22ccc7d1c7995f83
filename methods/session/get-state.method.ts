import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { SESSION, type SessionPort } from "../../core/ports/session.port.js";

@RpcMethod("session.get_state")
export class GetStateMethod implements RpcHandler {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle() {
    return this.session.getState();
  }
}
