import { RPC_LIMITS, RpcMethod, SESSION, inject, pageOf, ref, type RpcHandler, type SessionPort } from "../../core/family/family-api.js";
import { PageParams } from "./page.params.js";

@RpcMethod({
  params: PageParams,
  summary: "An indexed transcript page; `start` defaults to 0, `limit` to 100. Stops early before 8 MiB of encoded messages.",
  result: pageOf("messages", ref("MessageItem"), RPC_LIMITS.maxMessagePageItems),
})
export class GetMessagesMethod implements RpcHandler<PageParams> {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle(params: PageParams) {
    return this.session.getMessages(params.start ?? 0, params.limit ?? RPC_LIMITS.maxMessagePageItems);
  }
}
