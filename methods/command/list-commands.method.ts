import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { COMMANDS, type CommandPort } from "../../core/ports/commands.port.js";

@RpcMethod("command.list")
export class ListCommandsMethod implements RpcHandler {
  constructor(@inject(COMMANDS) private readonly commands: CommandPort) {}

  handle() {
    return { commands: this.commands.list() };
  }
}
