import { RpcMethod, SESSIONS, inject, type RpcHandler, type SessionsPort } from "../../core/family/family-api.js";
import { EntryParams } from "./entry.params.js";
import { SESSION_SWITCH } from "./session-tree.schemas.js";

@RpcMethod({
  params: EntryParams,
  summary: "Idle only. A new journal holding the path from the root to `entryId`; the connection continues in it (`session_switched`).",
  result: SESSION_SWITCH,
})
export class ForkMethod implements RpcHandler<EntryParams> {
  constructor(@inject(SESSIONS) private readonly sessions: SessionsPort) {}

  handle(params: EntryParams) {
    return this.sessions.fork(params.entryId);
  }
}
