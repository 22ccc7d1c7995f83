import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { THINKING, type ThinkingPort } from "../../core/ports/thinking.port.js";
import { SelectThinkingParams } from "./select-thinking.params.js";
import { closed, ref } from "../../core/wire/json-schema.js";

@RpcMethod("thinking.select", {
  params: SelectThinkingParams,
  summary: "Requests a thinking level (clamped to the model's); `scope` persists it to global or project settings.",
  result: closed({ requested: ref("ThinkingLevel"), effective: ref("ThinkingLevel"), persisted: { enum: ["global", "project", null] } }),
})
export class SelectThinkingMethod implements RpcHandler<SelectThinkingParams> {
  constructor(@inject(THINKING) private readonly thinking: ThinkingPort) {}

  handle(params: SelectThinkingParams) {
    return this.thinking.select(params.level, params.scope);
  }
}
