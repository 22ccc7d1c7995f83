import { EMPTY_RESULT, RpcMethod, SESSION, inject, type RpcHandler, type SessionPort } from "../../core/family/family-api.js";

/** May take the reserved slot, so a client with 32 concurrent requests in flight can still stop the work. */
@RpcMethod({
  summary: "Aborts the active work and discards queued input; answers `{}` once the interruption settled. May use the reserved slot.",
  result: EMPTY_RESULT,
})
export class InterruptMethod implements RpcHandler {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  async handle() {
    await this.session.interrupt();
    return {};
  }
}
