import { RpcMethod, SESSIONS, inject, type RpcHandler, type SessionsPort } from "../../core/family/family-api.js";
import { RewindParams } from "./rewind.params.js";
import { REWIND_RESULT } from "./session-tree.schemas.js";

@RpcMethod({
  params: RewindParams,
  summary:
    "Idle only. `conversation`: the leaf moves to `entryId`. `files`: every file Zi's write/edit tools changed after it gets its earlier content back; a file changed since by someone else refuses the rewind (per-file report) unless `force`. bash's changes are not covered.",
  result: REWIND_RESULT,
})
export class RewindMethod implements RpcHandler<RewindParams> {
  constructor(@inject(SESSIONS) private readonly sessions: SessionsPort) {}

  handle(params: RewindParams) {
    return this.sessions.rewind(params.entryId, params.restore, params.force ?? false);
  }
}
