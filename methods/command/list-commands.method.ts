import { COMMANDS, RpcMethod, arrayOf, closed, inject, ref, type CommandPort, type RpcHandler } from "../../core/family/family-api.js";

@RpcMethod({
  summary: "The admitted extension commands.",
  result: closed({ commands: arrayOf(ref("CommandDescriptor")) }),
})
export class ListCommandsMethod implements RpcHandler {
  constructor(@inject(COMMANDS) private readonly commands: CommandPort) {}

  handle() {
    return { commands: this.commands.list() };
  }
}
