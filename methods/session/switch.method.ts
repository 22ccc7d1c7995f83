import { RpcError, RpcMethod, SESSIONS, inject, type RpcHandler, type SessionsPort } from "../../core/family/family-api.js";
import { SwitchParams } from "./switch.params.js";
import { SESSION_SWITCH } from "./session-tree.schemas.js";

@RpcMethod({
  params: SwitchParams,
  summary: "Idle only. Replaces the connection's session with the journal at `path` or of session `id` (`session_switched`).",
  result: SESSION_SWITCH,
})
export class SwitchMethod implements RpcHandler<SwitchParams> {
  constructor(@inject(SESSIONS) private readonly sessions: SessionsPort) {}

  handle(params: SwitchParams) {
    if (params.path === undefined && params.id === undefined) throw new RpcError("operation_failed", "give the journal's path or the session's id");
    return this.sessions.switchSession(params.path === undefined ? { id: params.id } : { path: params.path });
  }
}
