import { RpcMethod, THINKING, arrayOf, closed, inject, ref, type RpcHandler, type ThinkingPort } from "../../core/family/family-api.js";

@RpcMethod({
  summary: "The levels the selected model supports, and the current one.",
  result: closed({ levels: arrayOf(ref("ThinkingLevel"), { minItems: 1 }), current: ref("ThinkingLevel") }),
})
export class ListThinkingMethod implements RpcHandler {
  constructor(@inject(THINKING) private readonly thinking: ThinkingPort) {}

  handle() {
    return this.thinking.list();
  }
}
