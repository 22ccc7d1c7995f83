import { pathToFileURL } from "node:url";
import type { SystemPromptHook, SystemPromptHooks } from "../context/system-prompt-hooks.js";
import type { AgentTool } from "../session/agent-tool.js";
import type { ToolCallHook } from "../session/tool-call-gate.js";
import { CommandCatalog } from "./command-catalog.js";
import type { ExtensionCommand, ZiExtension } from "./extension-api.js";
import { ExtensionActivation, type ExtensionRegistrar } from "./extension-activation.js";
import type { ExtensionModuleLoader } from "./extension-module-loader.js";
import type { ExtensionCandidate, ExtensionIdentity, ExtensionSession, ImportedExtension } from "./extension-types.js";
import type { PluginServices, PluginToolSet } from "./plugin-services.js";
import type { ZiPlugin } from "./zi-plugin.js";

/** How long one extension's default export may take before Zi gives up on it and serves without it. */
export const EXTENSION_LOAD_TIMEOUT_MS = 10_000;

export interface ExtensionHostOptions {
  session: ExtensionSession;
  loader: ExtensionModuleLoader;
  cwd: string;
  ziHome: string;
  /** One line to stderr. */
  log: (line: string) => void;
  loadTimeoutMs?: number;
  /** Handed to plugins (never to extension files). */
  pluginServices?: PluginServices;
  /** Where admitted extensions' system-prompt hooks go (the session's context). */
  promptHooks?: Pick<SystemPromptHooks, "add">;
}

/**
 * Owns every extension's registrations: the command catalog and the tool names. Plugins are activated
 * first, then extension files in discovery order, one at a time, so a name conflict always fails the
 * later extension. A broken extension is reported (one line on stderr and an `extension_error` event)
 * and left out; Zi keeps starting.
 */
export class ExtensionHost implements ExtensionRegistrar {
  readonly commands = new CommandCatalog();
  readonly session: ExtensionSession;
  readonly cwd: string;
  readonly ziHome: string;
  private readonly tools = new Map<string, ExtensionIdentity>();
  /** Each extension file's path and file URL, as its frames appear in a stack trace. */
  private readonly files: { name: string; markers: string[] }[] = [];
  private readonly loadTimeoutMs: number;

  constructor(private readonly options: ExtensionHostOptions) {
    this.session = options.session;
    this.cwd = options.cwd;
    this.ziHome = options.ziHome;
    this.loadTimeoutMs = options.loadTimeoutMs ?? EXTENSION_LOAD_TIMEOUT_MS;
  }

  /** Imports every candidate's module at once (nothing is activated yet). */
  importAll(candidates: readonly ExtensionCandidate[]): Promise<ImportedExtension[]> {
    return Promise.all(candidates.map((candidate) => this.options.loader.import(candidate)));
  }

  async activatePlugins(plugins: readonly ZiPlugin[]): Promise<void> {
    for (const plugin of plugins) {
      const extension = plugin.extension;
      const identity: ExtensionIdentity = { name: plugin.name, origin: "builtin" };
      const services = this.options.pluginServices;
      if (extension) await this.activate(identity, (zi) => extension(zi, services && { ...services, tools: this.runtimeTools(identity) }));
    }
  }

  /** A plugin's run-time tool set: names it owns are replaced whole; names another owner holds are refused. */
  private runtimeTools(owner: ExtensionIdentity): PluginToolSet {
    const owned = new Set<string>();
    return {
      replace: (tools) => {
        for (const name of owned) {
          this.tools.delete(name);
          this.session.removeTool(name);
        }
        owned.clear();
        const refused: string[] = [];
        for (const tool of tools) {
          if (this.tools.has(tool.name)) {
            refused.push(tool.name);
            continue;
          }
          owned.add(tool.name);
          this.tools.set(tool.name, owner);
          this.session.registerTool(tool);
        }
        return refused;
      },
      beforeModelCall: (hook) => this.session.onBeforeModelCall(hook),
    };
  }

  /** Resolves once every extension is admitted or reported, its `extension_error` handed to the listeners. */
  async activateAll(imported: readonly ImportedExtension[]): Promise<void> {
    for (const extension of imported) {
      const identity = { name: extension.name, origin: extension.origin };
      if (!("problem" in extension)) this.files.push({ name: extension.name, markers: [`${extension.name}:`, `${pathToFileURL(extension.name).href}:`] });
      if ("problem" in extension) await this.report(identity, extension.problem);
      else await this.activate(identity, extension.activate);
    }
  }

  /** Resolves to true when the extension was admitted. */
  async activate(identity: ExtensionIdentity, activate: ZiExtension): Promise<boolean> {
    const failure = await new ExtensionActivation(identity, this).run(activate, this.loadTimeoutMs);
    if (failure === undefined) return true;
    await this.report(identity, failure);
    return false;
  }

  commandOwner(name: string): ExtensionIdentity | undefined {
    return this.commands.ownerOf(name);
  }

  toolOwner(name: string): ExtensionIdentity | undefined {
    return this.tools.get(name);
  }

  commit(owner: ExtensionIdentity, commands: ReadonlyMap<string, ExtensionCommand>, tools: readonly AgentTool[], hooks: readonly ToolCallHook[] = [], promptHooks: readonly SystemPromptHook[] = []): void {
    for (const [name, command] of commands) this.commands.add({ name, command, owner });
    for (const hook of promptHooks) this.options.promptHooks?.add(owner.name, hook);
    for (const tool of tools) {
      this.tools.set(tool.name, owner);
      this.session.registerTool(tool);
    }
    for (const hook of hooks) this.session.addToolCallHook(owner.name, hook);
  }

  /**
   * The extension file an error was thrown from: the first stack frame that lies in an extension file
   * (its path or file URL followed by a line number) names it. Undefined when no frame does.
   */
  attribute(error: unknown): string | undefined {
    const stack = error instanceof Error ? error.stack : undefined;
    if (typeof stack !== "string") return undefined;
    for (const line of stack.split("\n").slice(1)) {
      const file = this.files.find(({ markers }) => markers.some((marker) => line.includes(marker)));
      if (file) return file.name;
    }
    return undefined;
  }

  log(line: string): void {
    this.options.log(line);
  }

  private report(identity: ExtensionIdentity, error: string): Promise<void> {
    return this.reportProblem(identity.name, `was not loaded: ${error}`, error);
  }

  /** One stderr line and an `extension_error` event naming `source` (an extension, or a file a plugin reads). */
  reportProblem(source: string, line: string, error: string): Promise<void> {
    this.log(`zi: extension ${source} ${line}`);
    return this.session.announce({ type: "extension_error", extension: source, error });
  }
}
