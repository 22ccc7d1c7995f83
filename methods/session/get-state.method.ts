import { RpcMethod, SESSION, inject, ref, type RpcHandler, type SessionPort } from "../../core/family/family-api.js";

@RpcMethod({
  summary: "The current session snapshot (the same object `ready.state` carries).",
  result: ref("SessionState"),
})
export class GetStateMethod implements RpcHandler {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle() {
    return this.session.getState();
  }
}
