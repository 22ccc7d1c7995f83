import { EMPTY_RESULT, RpcMethod, SESSION, closed, count, inject, nullable, oneOf, ref, str, type RequestContext, type RpcHandler, type SessionPort } from "../../core/family/family-api.js";
import { AwaitIdleParams } from "./await-idle.params.js";

/** Follows the current operation to idle: no deadline of its own (clients own their work budgets). */
@RpcMethod({
  params: AwaitIdleParams,
  rehearsal: { completionId: "zi-rehearsal" },
  summary: "Answers once the session is idle; with `completionId`, the completion evidence of that watch.",
  result: oneOf(
    EMPTY_RESULT,
    closed({ completionId: str, completionRevision: count, messageCount: count, completion: nullable(ref("CompletionEvidence")) }),
  ),
})
export class AwaitIdleMethod implements RpcHandler<AwaitIdleParams> {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle(params: AwaitIdleParams, context: RequestContext) {
    return this.session.awaitIdle(params.completionId, context.signal);
  }
}
