import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { MODELS, type ModelPort } from "../../core/ports/model.port.js";

@RpcMethod("model.list")
export class ListModelsMethod implements RpcHandler {
  constructor(@inject(MODELS) private readonly models: ModelPort) {}

  async handle() {
    return { models: await this.models.list() };
  }
}
