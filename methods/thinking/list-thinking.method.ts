import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { THINKING, type ThinkingPort } from "../../core/ports/thinking.port.js";
import { closed, ref } from "../../core/wire/json-schema.js";

@RpcMethod("thinking.list", {
  summary: "The levels the selected model supports, and the current one.",
  result: closed({ levels: { type: "array", items: ref("ThinkingLevel"), minItems: 1 }, current: ref("ThinkingLevel") }),
})
export class ListThinkingMethod implements RpcHandler {
  constructor(@inject(THINKING) private readonly thinking: ThinkingPort) {}

  handle() {
    return this.thinking.list();
  }
}
