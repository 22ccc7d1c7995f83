import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { MODELS, type ModelPort } from "../../core/ports/model.port.js";
import { SelectModelParams } from "./select-model.params.js";
import { closed, ref } from "../../core/wire/json-schema.js";

@RpcMethod("model.select", {
  params: SelectModelParams,
  summary: "Selects a model: unknown provider/id is not_found, missing credentials operation_failed.",
  result: closed({ model: ref("PublicModel") }),
  errors: ["not_found"],
})
export class SelectModelMethod implements RpcHandler<SelectModelParams> {
  constructor(@inject(MODELS) private readonly models: ModelPort) {}

  async handle(params: SelectModelParams) {
    return { model: await this.models.select(params.provider, params.id) };
  }
}
