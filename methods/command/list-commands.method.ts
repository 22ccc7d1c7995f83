import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { COMMANDS, type CommandPort } from "../../core/ports/commands.port.js";
import { closed, ref } from "../../core/wire/json-schema.js";

@RpcMethod("command.list", {
  summary: "The admitted extension commands.",
  result: closed({ commands: { type: "array", items: ref("CommandDescriptor") } }),
  // Commands are registered by plugins and extensions while they load.
  awaitsStartup: true,
})
export class ListCommandsMethod implements RpcHandler {
  constructor(@inject(COMMANDS) private readonly commands: CommandPort) {}

  handle() {
    return { commands: this.commands.list() };
  }
}
