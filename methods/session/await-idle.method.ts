import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RequestContext, RpcHandler } from "../../core/kernel/rpc-handler.js";
import { SESSION, type SessionPort } from "../../core/ports/session.port.js";
import { AwaitIdleParams } from "./await-idle.params.js";
import { EMPTY_RESULT, closed, count, ref, str } from "../../core/wire/json-schema.js";

/** Follows the current operation to idle: no deadline of its own (clients own their work budgets). */
@RpcMethod("session.await_idle", {
  params: AwaitIdleParams,
  summary: "Answers once the session is idle; with `completionId`, the completion evidence of that watch.",
  result: {
    oneOf: [
      EMPTY_RESULT,
      closed({ completionId: str, completionRevision: count, messageCount: count, completion: { anyOf: [ref("CompletionEvidence"), { type: "null" }] } }),
    ],
  },
  waits: true,
})
export class AwaitIdleMethod implements RpcHandler<AwaitIdleParams> {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle(params: AwaitIdleParams, context: RequestContext) {
    return this.session.awaitIdle(params.completionId, context.signal);
  }
}
