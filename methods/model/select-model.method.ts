import { MODELS, RpcMethod, closed, inject, ref, type ModelPort, type RpcHandler } from "../../core/family/family-api.js";
import { SelectModelParams } from "./select-model.params.js";

@RpcMethod({
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
