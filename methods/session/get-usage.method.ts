import { RpcMethod, SESSION, inject, ref, type RpcHandler, type SessionPort } from "../../core/family/family-api.js";

@RpcMethod({
  summary: "Tokens, cost, model calls and tool calls: the session's, its current (or last) run's, and its ended delegated tasks'.",
  result: ref("SessionUsage"),
})
export class GetUsageMethod implements RpcHandler {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle() {
    return this.session.getUsage();
  }
}
