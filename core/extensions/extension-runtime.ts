import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { CommandInvoker } from "./command-invoker.js";
import { ExtensionDiscovery } from "./extension-discovery.js";
import { ExtensionHost } from "./extension-host.js";
import { ExtensionModuleLoader } from "./extension-module-loader.js";
import type { ExclusiveRunner, ExtensionSession } from "./extension-types.js";
import type { PluginServices } from "./plugin-services.js";
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
  /** `ZI_HOME/agents` and the project's `.zi/agents` (agent profiles). */
  globalAgentsDir: string;
  projectAgentsDir: string;
  /** `--extension` paths, in command-line order. */
  cliPaths: readonly string[];
  /** The project trust decision: project extensions load only when true. */
  projectTrusted: boolean;
  /** Why the project is not trusted and how to trust it (reported when extensions are skipped). */
  untrustedReason?: string;
  loadPlugins: PluginLoader;
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
      childSessions: options.childSessions,
      agentDirs: [
        { dir: options.globalAgentsDir, origin: "global" },
        ...(this.discovery.loadsProjectContent() ? [{ dir: options.projectAgentsDir, origin: "project" as const }] : []),
      ],
      report: (source, error) => this.host.reportProblem(source, `was skipped: ${error}`, error),
    };
    this.host = new ExtensionHost({ session, loader, cwd, ziHome, log, pluginServices });
    this.commands = new CommandInvoker(this.host.commands, session, cwd, log);
  }

  /**
   * Plugins first, then extension files in discovery order; the files' modules import meanwhile.
   * Never rejects for a broken extension: each is reported and left out.
   */
  async load(): Promise<void> {
    const imported = this.discovery.find().then((candidates) => this.host.importAll(candidates));
    await this.reportUntrustedProfiles();
    await this.host.activatePlugins(await this.options.loadPlugins());
    await this.host.activateAll(await imported);
  }

  /** Profiles of an untrusted project are skipped like its extensions: one line and one event name them. */
  private async reportUntrustedProfiles(): Promise<void> {
    if (this.discovery.loadsProjectContent()) return;
    const dir = this.options.projectAgentsDir;
    const profiles = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(".md") && !name.startsWith(".")).sort();
    if (profiles.length === 0) return;
    const reason = this.options.untrustedReason ?? "the project is not trusted";
    const error = `skipped ${profiles.length} project delegation profile(s) (${profiles.join(", ")}): ${reason}`;
    await this.host.reportProblem(dir, `was not loaded: ${error}`, error);
  }
}
