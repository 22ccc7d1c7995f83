import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { SESSION, type SessionPort } from "../../core/ports/session.port.js";
import { RPC_LIMITS } from "../../core/kernel/rpc-limits.js";
import { PageParams } from "./page.params.js";

@RpcMethod("session.get_messages", { params: PageParams })
export class GetMessagesMethod implements RpcHandler<PageParams> {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle(params: PageParams) {
    return this.session.getMessages(params.start ?? 0, params.limit ?? RPC_LIMITS.maxMessagePageItems);
  }
}
