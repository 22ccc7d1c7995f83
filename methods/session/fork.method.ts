import { RpcMethod, SESSIONS, inject, type RpcHandler, type SessionsPort } from "../../core/family/family-api.js";
import { ForkParams } from "./fork.params.js";
import { SESSION_SWITCH } from "./session-tree.schemas.js";

@RpcMethod({
  params: ForkParams,
  summary:
    "Idle only. A new journal holding the path from the root to `entryId`; the connection continues in it (`session_switched`), or with `switch: false` stays where it is and the result names the new journal.",
  result: SESSION_SWITCH,
  errors: ["not_found"],
})
export class ForkMethod implements RpcHandler<ForkParams> {
  constructor(@inject(SESSIONS) private readonly sessions: SessionsPort) {}

  handle(params: ForkParams) {
    return this.sessions.fork(params.entryId, params.switch !== false);
  }
}
