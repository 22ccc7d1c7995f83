import { RpcError, RpcMethod, SESSION, inject, ref, type RpcHandler, type SessionPort } from "../../core/family/family-api.js";

@RpcMethod({
  summary: "What the system prompt is built from: context files, SYSTEM.md / APPEND_SYSTEM.md, skills, problems (paths and names, not text).",
  result: ref("ContextSummary"),
})
export class GetContextMethod implements RpcHandler {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle() {
    const context = this.session.getContext();
    if (context === null) throw new RpcError("operation_failed", "the session's context is not loaded");
    return context;
  }
}
