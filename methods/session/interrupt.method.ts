import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { SESSION, type SessionPort } from "../../core/ports/session.port.js";
import { EMPTY_RESULT } from "../../core/wire/json-schema.js";

/** May take the reserved slot, so a client with 32 waits in flight can still stop the work. */
@RpcMethod("session.interrupt", {
  summary: "Aborts the active work and discards queued input; answers `{}` once the interruption settled. May use the reserved slot.",
  result: EMPTY_RESULT,
  slot: "interrupt",
  waits: true,
})
export class InterruptMethod implements RpcHandler {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  async handle() {
    await this.session.interrupt();
    return {};
  }
}
