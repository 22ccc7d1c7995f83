import { RpcMethod, THINKING, closed, inject, literal, ref, type RpcHandler, type ThinkingPort } from "../../core/family/family-api.js";
import { SelectThinkingParams } from "./select-thinking.params.js";

@RpcMethod({
  params: SelectThinkingParams,
  summary: "Requests a thinking level (clamped to the model's); `scope` persists it to global or project settings.",
  result: closed({ requested: ref("ThinkingLevel"), effective: ref("ThinkingLevel"), persisted: literal("global", "project", null) }),
})
export class SelectThinkingMethod implements RpcHandler<SelectThinkingParams> {
  constructor(@inject(THINKING) private readonly thinking: ThinkingPort) {}

  handle(params: SelectThinkingParams) {
    return this.thinking.select(params.level, params.scope);
  }
}
