import { MODELS, RpcMethod, arrayOf, closed, inject, ref, type ModelPort, type RpcHandler } from "../../core/family/family-api.js";

@RpcMethod({
  summary: "Model descriptors with whether credentials are configured.",
  result: closed({ models: arrayOf(ref("CatalogModel")) }),
})
export class ListModelsMethod implements RpcHandler {
  constructor(@inject(MODELS) private readonly models: ModelPort) {}

  async handle() {
    return { models: await this.models.list() };
  }
}
