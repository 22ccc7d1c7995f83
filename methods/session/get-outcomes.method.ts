import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { SESSION, type SessionPort } from "../../core/ports/session.port.js";
import { RPC_LIMITS } from "../../core/wire/limits.js";
import { PageParams } from "./page.params.js";
import { pageOf, ref } from "../../core/wire/json-schema.js";

@RpcMethod("session.get_outcomes", {
  params: PageParams,
  summary: "An indexed page of operation outcomes in journal order; `start` defaults to 0, `limit` to 100.",
  result: pageOf("outcomes", ref("OutcomeItem"), RPC_LIMITS.maxOutcomePageItems),
})
export class GetOutcomesMethod implements RpcHandler<PageParams> {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle(params: PageParams) {
    return this.session.getOutcomes(params.start ?? 0, params.limit ?? RPC_LIMITS.maxOutcomePageItems);
  }
}
