import { RPC_LIMITS, RpcMethod, SESSION, inject, pageOf, ref, type RpcHandler, type SessionPort } from "../../core/family/family-api.js";
import { OutcomePageParams } from "./outcome-page.params.js";

@RpcMethod({
  params: OutcomePageParams,
  summary: "An indexed page of operation outcomes in journal order; `start` defaults to 0, `limit` to 100.",
  result: pageOf("outcomes", ref("OutcomeItem"), RPC_LIMITS.maxOutcomePageItems),
})
export class GetOutcomesMethod implements RpcHandler<OutcomePageParams> {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle(params: OutcomePageParams) {
    return this.session.getOutcomes(params.start ?? 0, params.limit ?? RPC_LIMITS.maxOutcomePageItems);
  }
}
