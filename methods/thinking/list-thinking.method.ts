import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { THINKING, type ThinkingPort } from "../../core/ports/thinking.port.js";

@RpcMethod("thinking.list")
export class ListThinkingMethod implements RpcHandler {
  constructor(@inject(THINKING) private readonly thinking: ThinkingPort) {}

  handle() {
    return this.thinking.list();
  }
}
