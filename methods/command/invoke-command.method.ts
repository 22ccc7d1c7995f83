import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { COMMANDS, type CommandPort } from "../../core/ports/commands.port.js";
import { InvokeCommandParams } from "./invoke-command.params.js";
import { closed, str } from "../../core/wire/json-schema.js";

/**
 * Runs one extension command by its exact name (no slash parsing), idle-only. It waits for the
 * command, so later requests (a `session.interrupt` above all) are admitted meanwhile.
 */
@RpcMethod("command.invoke", {
  params: InvokeCommandParams,
  summary: "Invokes an extension command by exact name (idle only); optional feedback outside the journal.",
  result: closed({ message: str }, ["message"]),
  errors: ["not_found"],
  waits: true,
  // Commands are registered by plugins and extensions while they load.
  awaitsStartup: true,
})
export class InvokeCommandMethod implements RpcHandler<InvokeCommandParams> {
  constructor(@inject(COMMANDS) private readonly commands: CommandPort) {}

  handle(params: InvokeCommandParams) {
    return this.commands.invoke(params.name, params.arguments ?? "");
  }
}
