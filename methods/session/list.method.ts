import { RpcMethod, SESSIONS, SESSION_TREE_LIMITS, inject, pageOf, type RpcHandler, type SessionsPort } from "../../core/family/family-api.js";
import { ListParams } from "./list.params.js";
import { SESSION_LIST_ITEM } from "./session-tree.schemas.js";

@RpcMethod({
  params: ListParams,
  summary: "The journals under ZI_HOME, newest first: this working directory's (`scope: \"cwd\"`, default) or all. Paged by `start`/`limit` (default 50, max 100).",
  result: pageOf("sessions", SESSION_LIST_ITEM, SESSION_TREE_LIMITS.maxSessionPageItems),
})
export class ListMethod implements RpcHandler<ListParams> {
  constructor(@inject(SESSIONS) private readonly sessions: SessionsPort) {}

  handle(params: ListParams) {
    return this.sessions.list(params.scope ?? "cwd", params.start ?? 0, params.limit ?? 50);
  }
}
