import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import type { ZiOptions } from "../cli/cli-options.js";
import { SessionTuning } from "../config/session-tuning.js";
import { SettingsStore } from "../config/settings-store.js";
import { ZiPaths } from "../config/zi-paths.js";
import { SessionJournal } from "../journal/session-journal.js";
import { ModelRegistry } from "../models/model-registry.js";
import { ExtensionRuntime, type PluginLoader } from "../extensions/extension-runtime.js";
import type { CommandPort } from "../ports/commands.port.js";
import type { ModelPort } from "../ports/model.port.js";
import type { ThinkingPort } from "../ports/thinking.port.js";
import { AgentSession } from "../session/agent-session.js";
import type { SessionModule } from "./session-module.js";

const stderrLine = (line: string): void => void process.stderr.write(`${line}\n`);

const SYSTEM_PROMPT = [
  "You are Zi, a coding agent working in the user's project directory.",
  "Use the tools to read, search and change files and to run commands; prefer small, verifiable steps.",
  "Keep a work plan with update_plan for multi-step tasks, and report what you changed.",
].join("\n");

/**
 * Builds the process's one AgentSession from the command line: paths under ZI_HOME, settings, the model
 * runtime and the journal. Nothing here imports pi-ai; the first model call or listing does. Plugins
 * (the coding tools among them) and extension files are loaded once `ready` is out.
 */
export class AgentSessionModule implements SessionModule {
  readonly models: ModelPort;
  readonly thinking: ThinkingPort;
  readonly commands: CommandPort;
  readonly events: ExtensionRuntime["events"];

  private constructor(
    readonly session: AgentSession,
    private readonly extensions: ExtensionRuntime,
    private readonly journal: SessionJournal,
    private readonly settings: SettingsStore,
  ) {
    this.models = session.models;
    this.thinking = session.thinking;
    this.commands = extensions.commands;
    this.events = extensions.events;
  }

  static async create(options: ZiOptions, env: NodeJS.ProcessEnv, cwd: string, loadPlugins: PluginLoader = async () => []): Promise<AgentSessionModule> {
    const paths = new ZiPaths({ env, cwd });
    const settings = new SettingsStore(paths);
    const registry = new ModelRegistry({ paths, env, fauxScriptFile: options.fauxScript });
    const journal = AgentSessionModule.openJournal(options, paths, cwd);
    const tuning = new SessionTuning(settings);
    const session = new AgentSession({
      runtime: registry,
      journal,
      cwd,
      settings: {
        thinkingLevel: settings.getThinkingLevel(),
        steeringMode: tuning.queueMode("steeringMode"),
        followUpMode: tuning.queueMode("followUpMode"),
      },
      settingsWriter: settings,
      retry: tuning.retry(),
      compaction: tuning.compaction(),
      systemPrompt: SYSTEM_PROMPT,
    });
    const extensions = new ExtensionRuntime({
      session,
      cwd,
      ziHome: paths.ziHome,
      globalDir: paths.globalExtensionsDir,
      projectDir: paths.projectExtensionsDir,
      cliPaths: options.extensions,
      loadPlugins,
      log: stderrLine,
    });
    return new AgentSessionModule(session, extensions, journal, settings);
  }

  private static openJournal(options: ZiOptions, paths: ZiPaths, cwd: string): SessionJournal {
    const sessionId = randomUUID();
    if (options.noSession) return SessionJournal.inMemory(sessionId, cwd);
    if (options.sessionFile === undefined) return SessionJournal.create(paths.sessionsDir, sessionId, cwd);
    if (!existsSync(options.sessionFile)) throw new Error(`session file ${options.sessionFile} does not exist`);
    return SessionJournal.open(options.sessionFile);
  }

  /**
   * Once `ready` is out: resolve a resumed session's model (it may load the catalogue), and load the
   * plugins (the coding tools among them) and extension files before the first request is admitted.
   */
  async afterReady(): Promise<void> {
    void this.session.ensureModelRestored();
    await this.extensions.load();
  }

  async restoreModel(): Promise<void> {
    await this.session.ensureModelRestored();
    const fallback = this.settings.getDefaultModel();
    if (this.session.getState().model.type === "unselected" && fallback) await this.models.select(fallback.provider, fallback.id);
  }

  /** The client disconnected: its queued steering and follow-up input goes with it. */
  async cancel(): Promise<void> {
    this.session.clearQueues();
    await this.session.interrupt();
  }

  async dispose(): Promise<void> {
    await this.session.dispose();
    this.journal.close();
  }
}
