import { RpcMethod, SESSIONS, SESSION_TREE_LIMITS, inject, type RpcHandler, type SessionsPort } from "../../core/family/family-api.js";
import { TreePageParams } from "./tree-page.params.js";
import { TREE_PAGE } from "./session-tree.schemas.js";

@RpcMethod({
  params: TreePageParams,
  summary: "The journal's entries as a tree, in file order (id, parentId, type, role, label), and the current leaf. `start` defaults to 0, `limit` to 500.",
  result: TREE_PAGE,
})
export class GetTreeMethod implements RpcHandler<TreePageParams> {
  constructor(@inject(SESSIONS) private readonly sessions: SessionsPort) {}

  handle(params: TreePageParams) {
    return this.sessions.getTree(params.start ?? 0, params.limit ?? SESSION_TREE_LIMITS.maxTreePageItems);
  }
}
