import type { SystemPromptHooks } from "../context/system-prompt-hooks.js";
import { join } from "node:path";
import { oneLine } from "./one-line.js";
import { CommandInvoker } from "./command-invoker.js";
import { ExtensionDiscovery } from "./extension-discovery.js";
import { ExtensionHost } from "./extension-host.js";
import { ExtensionModuleLoader } from "./extension-module-loader.js";
import type { ExclusiveRunner, ExtensionSession } from "./extension-types.js";
import type { PluginSecrets, PluginServices } from "./plugin-services.js";
import type { ZiPlugin } from "./zi-plugin.js";

/** The plugins compiled into this Zi (bin/zi-cli.ts): a dynamic import, so `ready` does not wait for them. */
export type PluginLoader = () => Promise<readonly ZiPlugin[]>;

export interface ExtensionRuntimeOptions {
  session: ExtensionSession & ExclusiveRunner & PluginServices["session"];
  /** Child sessions for plugins that delegate. */
  childSessions: PluginServices["childSessions"];
  cwd: string;
  ziHome: string;
  globalDir: string;
  projectDir: string;
  /** The project's `.zi/` (plugins read their own files there, under the same trust decision). */
  projectZiDir: string;
  /** `--extension` paths, in command-line order. */
  cliPaths: readonly string[];
  /** The project trust decision: project extensions load only when true. */
  projectTrusted: boolean;
  /** Why the project is not trusted and how to trust it (reported when its content is skipped). */
  /** Both settings files, for plugins (`PluginServices.settings`). */
  settings?: PluginServices["settings"];
  untrustedReason?: string;
  loadPlugins: PluginLoader;
  /** The credential redaction, for values plugins read from user configuration. */
  secrets?: PluginSecrets;
  /** Where extensions' system-prompt hooks go (docs/context.md). */
  promptHooks?: Pick<SystemPromptHooks, "add">;
  /** One line to stderr. */
  log: (line: string) => void;
}

/**
 * Everything extensions add to one session, assembled: the event stream the connection forwards (with
 * `extension_error`), the command port, and `load`, which activates plugins and extension files.
 */
export class ExtensionRuntime {
  /** What the connection forwards: the session's events, `extension_error` among them. */
  readonly events: Pick<ExtensionSession, "subscribe">;
  readonly commands: CommandInvoker;
  private readonly host: ExtensionHost;
  private readonly discovery: ExtensionDiscovery;
  private readonly disposers: (() => Promise<void>)[] = [];

  constructor(private readonly options: ExtensionRuntimeOptions) {
    const { session, cwd, ziHome, log } = options;
    this.events = session;
    const loader = new ExtensionModuleLoader(join(ziHome, "cache", "jiti"));
    this.discovery = new ExtensionDiscovery({
      globalDir: options.globalDir,
      projectDir: options.projectDir,
      cliPaths: options.cliPaths,
      cwd,
      projectTrusted: options.projectTrusted,
      untrustedReason: options.untrustedReason,
    });
    const pluginServices: PluginServices = {
      session,
      // Replaced by each plugin's own view when it is activated (ExtensionHost.activatePlugins).
      tools: { replace: () => [], beforeModelCall: () => () => undefined },
      secrets: options.secrets ?? { add: () => undefined, redact: (text) => text },
      onDispose: (hook) => void this.disposers.push(hook),
      childSessions: options.childSessions,
      project: {
        dir: options.projectZiDir,
        trusted: this.discovery.loadsProjectContent(),
        untrustedReason: options.untrustedReason ?? "the project is not trusted",
      },
      report: (source, error, outcome = "skipped") => this.host.reportProblem(source, `was ${outcome}: ${error}`, error),
      settings: options.settings ?? { getGlobal: () => undefined, getProject: () => undefined },
    };
    this.host = new ExtensionHost({ session, loader, cwd, ziHome, log, pluginServices, promptHooks: options.promptHooks });
    this.commands = new CommandInvoker(this.host.commands, session, cwd, log);
  }

  /**
   * Plugins first, then extension files in discovery order; the files' modules import meanwhile.
   * Never rejects for a broken extension: each is reported and left out.
   */
  async load(): Promise<void> {
    const imported = this.discovery.find().then((candidates) => this.host.importAll(candidates));
    await this.host.activatePlugins(await this.options.loadPlugins());
    await this.host.activateAll(await imported);
  }

  /** Runs the plugins' shutdown work (MCP servers stop), all at once; never rejects. */
  async dispose(): Promise<void> {
    await Promise.all(this.disposers.splice(0).map((hook) => hook().catch((error: unknown) => this.options.log(`zi: plugin shutdown failed: ${String(error)}`))));
  }

  /** One stderr line and one `extension_error` about a file Zi could not use (`line` completes "zi: extension SOURCE"). */
  reportProblem(source: string, line: string, error: string): Promise<void> {
    return this.host.reportProblem(source, line, error);
  }

  /**
   * An exception or rejection nobody caught. When a stack frame lies in an extension file, it is that
   * extension's: one stderr line and an `extension_error` event, and true (the session goes on).
   * False when it cannot be attributed (Zi's own code or a dependency).
   */
  reportUncaught(kind: "exception" | "rejection", error: unknown): boolean {
    const source = this.host.attribute(error);
    if (source === undefined) return false;
    const text = `uncaught ${kind}: ${oneLine(error)}`;
    this.options.log(`zi: extension ${source}: ${text}`);
    void this.options.session.announce({ type: "extension_error", extension: source, error: text });
    return true;
  }
}
