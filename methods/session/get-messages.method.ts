import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { SESSION, type SessionPort } from "../../core/ports/session.port.js";
import { RPC_LIMITS } from "../../core/wire/limits.js";
import { PageParams } from "./page.params.js";
import { pageOf, ref } from "../../core/wire/json-schema.js";

@RpcMethod("session.get_messages", {
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
