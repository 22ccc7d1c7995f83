import { RpcMethod, SESSIONS, inject, type RpcHandler, type SessionsPort } from "../../core/family/family-api.js";
import { SESSION_SWITCH } from "./session-tree.schemas.js";

@RpcMethod({
  summary: "Idle only. Replaces the connection's session with a new, empty one (`session_switched`); the model and thinking level stay.",
  result: SESSION_SWITCH,
})
export class NewMethod implements RpcHandler {
  constructor(@inject(SESSIONS) private readonly sessions: SessionsPort) {}

  handle() {
    return this.sessions.newSession();
  }
}
