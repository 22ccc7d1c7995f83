import type { CommandDescriptor } from "../ports/commands.port.js";
import type { ExtensionCommand } from "./extension-api.js";
import type { ExtensionIdentity } from "./extension-types.js";

export interface RegisteredCommand {
  name: string;
  command: ExtensionCommand;
  owner: ExtensionIdentity;
}

/** The admitted commands, in registration order (built-in plugins, global, project, `--extension`). */
export class CommandCatalog {
  private readonly commands = new Map<string, RegisteredCommand>();

  get(name: string): RegisteredCommand | undefined {
    return this.commands.get(name);
  }

  /** The extension that registered `name`, if any. */
  ownerOf(name: string): ExtensionIdentity | undefined {
    return this.commands.get(name)?.owner;
  }

  add(entry: RegisteredCommand): void {
    if (this.commands.has(entry.name)) throw new Error(`command "${entry.name}" is already registered`);
    this.commands.set(entry.name, entry);
  }

  list(): CommandDescriptor[] {
    return [...this.commands.values()].map(({ name, command, owner }) =>
      command.description === undefined ? { name, source: owner.origin } : { name, description: command.description, source: owner.origin },
    );
  }
}
