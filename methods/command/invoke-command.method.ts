import { COMMANDS, RpcMethod, closed, inject, str, type CommandPort, type RpcHandler } from "../../core/family/family-api.js";
import { InvokeCommandParams } from "./invoke-command.params.js";

/**
 * Runs one extension command by its exact name (no slash parsing), idle-only. Concurrent: while the
 * command runs, later requests (a `session.interrupt` above all) are admitted.
 */
@RpcMethod({
  params: InvokeCommandParams,
  summary: "Invokes an extension command by exact name (idle only); optional feedback outside the journal.",
  result: closed({ message: str }, ["message"]),
  errors: ["not_found"],
})
export class InvokeCommandMethod implements RpcHandler<InvokeCommandParams> {
  constructor(@inject(COMMANDS) private readonly commands: CommandPort) {}

  handle(params: InvokeCommandParams) {
    return this.commands.invoke(params.name, params.arguments ?? "");
  }
}
