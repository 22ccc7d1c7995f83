import { AbortRace } from "../session/abort-race.js";
import { RpcError } from "../kernel/rpc-error.js";
import type { CommandDescriptor, CommandFeedback, CommandPort } from "../ports/commands.port.js";
import { clipUtf8 } from "../wire/utf8-clip.js";
import type { CommandContext, CommandResult } from "./extension-api.js";
import type { CommandCatalog, RegisteredCommand } from "./command-catalog.js";
import type { ExclusiveRunner, ExtensionSession } from "./extension-types.js";
import { oneLine } from "./one-line.js";

/** Feedback is local, but it still travels in one frame: the same bound as a command's arguments. */
export const COMMAND_FEEDBACK_MAX_BYTES = 256 * 1024;
const ERROR_MESSAGE_MAX_BYTES = 1024;

const failed = (message: string): RpcError => new RpcError("operation_failed", message);

/**
 * Runs extension commands as idle-only session operations (`AgentSession.runExclusive`): the session
 * is `running` meanwhile, and `session.interrupt` aborts the handler's signal. Zi stops waiting for
 * the handler the moment it is interrupted (as it does for tools), so an interrupt always settles
 * promptly; a handler that ignores the signal finishes in the background and its result is dropped.
 */
export class CommandInvoker implements CommandPort {
  constructor(
    private readonly catalog: CommandCatalog,
    private readonly session: ExclusiveRunner & Pick<ExtensionSession, "getState">,
    private readonly cwd: string,
    private readonly log: (line: string) => void,
  ) {}

  list(): CommandDescriptor[] {
    return this.catalog.list();
  }

  async invoke(name: string, args: string): Promise<CommandFeedback> {
    const entry = this.catalog.get(name);
    if (!entry) throw new RpcError("not_found", "no command with this name");
    const result = await this.session.runExclusive("running", (signal) => this.run(entry, args, signal));
    return CommandInvoker.feedback(entry.name, result);
  }

  private async run(entry: RegisteredCommand, args: string, signal: AbortSignal): Promise<CommandResult | void> {
    const context: CommandContext = { signal, cwd: this.cwd, getState: () => this.session.getState() };
    const outcome = await new AbortRace(signal).run(() => entry.command.handler(args, context));
    if (outcome.type === "aborted") throw failed(`command "${entry.name}" was interrupted`);
    if (outcome.type === "done") return outcome.value;
    const { error } = outcome;
    const stack = (error as { stack?: unknown } | null)?.stack;
    this.log(`zi: command "${entry.name}" (${entry.owner.name}) failed: ${typeof stack === "string" ? stack : oneLine(error)}`);
    throw failed(`command "${entry.name}" failed: ${clipUtf8(oneLine(error), ERROR_MESSAGE_MAX_BYTES).text}`);
  }

  private static feedback(name: string, result: CommandResult | void): CommandFeedback {
    if (result === undefined || result === null) return {};
    if (typeof result !== "object") throw failed(`command "${name}" returned an invalid result: expected { message?: string }`);
    const { message } = result;
    if (message === undefined) return {};
    if (typeof message !== "string") throw failed(`command "${name}" returned an invalid result: message must be a string`);
    return { message: clipUtf8(message, COMMAND_FEEDBACK_MAX_BYTES).text };
  }
}
