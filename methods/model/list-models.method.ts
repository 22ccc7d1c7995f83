import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { MODELS, type ModelPort } from "../../core/ports/model.port.js";
import { closed, ref } from "../../core/wire/json-schema.js";

@RpcMethod("model.list", {
  summary: "Model descriptors with whether credentials are configured.",
  result: closed({ models: { type: "array", items: ref("CatalogModel") } }),
})
export class ListModelsMethod implements RpcHandler {
  constructor(@inject(MODELS) private readonly models: ModelPort) {}

  async handle() {
    return { models: await this.models.list() };
  }
}
