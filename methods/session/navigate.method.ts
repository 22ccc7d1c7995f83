import { RpcMethod, SESSIONS, inject, type RpcHandler, type SessionsPort } from "../../core/family/family-api.js";
import { NavigateParams } from "./navigate.params.js";
import { LEAF_MOVE } from "./session-tree.schemas.js";

@RpcMethod({
  params: NavigateParams,
  summary: "Idle only. Moves the leaf to `entryId`: the model sees the path from the root to it, the next prompt branches there. `summary` of the branch left is journaled on the new path.",
  result: LEAF_MOVE,
})
export class NavigateMethod implements RpcHandler<NavigateParams> {
  constructor(@inject(SESSIONS) private readonly sessions: SessionsPort) {}

  handle(params: NavigateParams) {
    return this.sessions.navigate(params.entryId, params.summary);
  }
}
