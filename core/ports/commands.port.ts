/** Injection token for extension commands: `@inject(COMMANDS) commands: CommandPort`. */
export const COMMANDS = Symbol.for("zi.port.commands");

/** Where an extension came from: compiled into Zi, `ZI_HOME/extensions/`, `.zi/extensions/`, `--extension`. */
export type ExtensionOrigin = "builtin" | "global" | "project" | "cli";

export interface CommandDescriptor {
  name: string;
  description?: string;
  source: ExtensionOrigin;
}

/** A command's optional local feedback: never journaled, never shown to the model. */
export interface CommandFeedback {
  message?: string;
}

/**
 * What `command.*` methods need. `invoke` throws RpcError: `not_found` for an unknown name (nothing
 * ran), `operation_failed` when the session is busy, the command failed, or it was interrupted.
 */
export interface CommandPort {
  list(): CommandDescriptor[];
  invoke(name: string, args: string): Promise<CommandFeedback>;
}
