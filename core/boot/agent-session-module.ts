import { existsSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { ZiOptions } from "../cli/cli-options.js";
import { isProjectTrusted, TRUSTED_PROJECTS_KEY, untrustedHint } from "../config/project-trust.js";
import { SessionTuning } from "../session/session-tuning.js";
import { SettingsStore } from "../config/settings-store.js";
import type { Redactor } from "../config/redactor.js";
import { SandboxControl } from "../sandbox/sandbox-control.js";
import { SANDBOX_KEY, sandboxSettings } from "../sandbox/sandbox-settings.js";
import { ZiPaths } from "../config/zi-paths.js";
import { SessionJournal } from "../journal/session-journal.js";
import { randomUuid } from "../journal/random-uuid.js";
import { SessionCatalog } from "../journal/session-catalog.js";
import { CheckpointStore } from "../journal/checkpoint-store.js";
import { FileCheckpoints } from "../session/file-checkpoints.js";
import { SessionLibrary } from "../session/session-library.js";
import { SessionTree } from "../session/session-tree.js";
import type { SessionsPort } from "../ports/sessions.port.js";
import { ModelRegistry } from "../models/model-registry.js";
import { ProviderWarmer } from "../models/provider-warmer.js";
import { SessionRehearsal } from "../session/session-rehearsal.js";
import type { AgentTool } from "../session/agent-tool.js";
import { ExtensionRuntime, type PluginLoader } from "../extensions/extension-runtime.js";
import type { CommandPort } from "../ports/commands.port.js";
import type { ModelPort } from "../ports/model.port.js";
import type { ThinkingPort } from "../ports/thinking.port.js";
import { AgentSession } from "../session/agent-session.js";
import { ChildSessionFactory } from "../session/child-session-factory.js";
import { SessionContext } from "../context/session-context.js";
import { dirname } from "node:path";
import type { SessionModule } from "./session-module.js";

const stderrLine = (line: string): void => void process.stderr.write(`${line}\n`);

/**
 * Builds the process's one AgentSession from the command line: paths under ZI_HOME, settings, the model
 * runtime and the journal. Nothing here imports pi-ai for a fresh session (the first model call or
 * listing does); a resumed one resolves its recorded model before `ready`, which loads it. Plugins
 * (the coding tools among them) and extension files are loaded once `ready` is out.
 */
export class AgentSessionModule implements SessionModule {
  readonly models: ModelPort;
  readonly thinking: ThinkingPort;
  readonly commands: CommandPort;
  readonly events: ExtensionRuntime["events"];
  readonly sessions: SessionsPort;

  get sessionFile(): string | null {
    // The current journal: session.new, fork and switch replace it.
    return this.tree.current.file;
  }

  private constructor(
    readonly session: AgentSession,
    private readonly extensions: ExtensionRuntime,
    private readonly registry: ModelRegistry,
    private readonly settings: SettingsStore,
    private readonly context: SessionContext,
    private readonly library: SessionLibrary,
    private readonly tree: SessionTree,
    private readonly startedUp: (ended: boolean) => void,
  ) {
    this.sessions = library;
    this.models = session.models;
    this.thinking = session.thinking;
    this.commands = extensions.commands;
    this.events = extensions.events;
  }

  /** `redactor`: the process's one (ProcessShell's); every credential this session learns feeds it. */
  static async create(
    options: ZiOptions,
    env: NodeJS.ProcessEnv,
    cwd: string,
    loadPlugins: PluginLoader = async () => [],
    redactor?: Redactor,
  ): Promise<AgentSessionModule> {
    const paths = new ZiPaths({ env, cwd });
    // Private from the start, --no-session included: logs, caches and sessions created in it later inherit nothing wider.
    // Synchronous: a mkdir cannot block on what it finds (the reads below can, on a FIFO), and awaited on
    // the thread pool it was a round trip of its own, the pool's first (its threads started), ahead of `ready`.
    try {
      mkdirSync(paths.ziHome, { recursive: true, mode: 0o700 });
    } catch {
      // not creatable here: whatever needs it reports its own failure
    }
    const settings = new SettingsStore(paths);
    const registry = new ModelRegistry({ paths, env, fauxScriptFile: options.fauxScript, ...(redactor ? { redactor } : {}) });
    // Both read without blocking, so that a FIFO or a device in ZI_HOME cannot hold `ready` back.
    await Promise.all([settings.load(), registry.loadCredentials()]);
    const redact = (jsonLine: string) => registry.credentials.redactJson(jsonLine);
    const journal = AgentSessionModule.openJournal(options, paths, cwd, redact);
    const checkpoints = new CheckpointStore(paths.checkpointsDir);
    await SessionTree.finishRewind(journal, checkpoints);
    const projectTrusted = await isProjectTrusted({
      projectRoot: resolve(cwd),
      trustFlag: options.trustProject,
      trustedProjects: settings.getGlobal(TRUSTED_PROJECTS_KEY),
    });
    const untrustedReason = untrustedHint(resolve(cwd));
    // The system prompt is built per run from files read once, after `ready` (docs/context.md).
    let extensions: ExtensionRuntime | undefined;
    const context = new SessionContext({
      ziHome: paths.ziHome,
      cwd,
      env,
      projectTrusted,
      untrustedReason,
      log: stderrLine,
      report: async ({ source, error }) => {
        if (extensions) await extensions.reportProblem(source, `was not loaded: ${error}`, error);
        else stderrLine(`zi: ${source} was not loaded: ${error}`);
      },
    });
    for (const text of options.appendSystemPrompt ?? []) context.hooks.add("--append-system-prompt", () => text);
    const tuning = new SessionTuning(settings, projectTrusted);
    const sandboxConfig = sandboxSettings(settings.getGlobal(SANDBOX_KEY), settings.getProject(SANDBOX_KEY), projectTrusted, options.sandbox, resolve(cwd));
    for (const warning of sandboxConfig.warnings) stderrLine(`zi: sandbox: ${warning}`);
    // ZI_HOME (settings, credentials, sessions) stays read-only inside the sandbox even where it lies in a writable root.
    const sandbox = new SandboxControl(sandboxConfig.settings, [paths.ziHome]);
    const session = new AgentSession({
      sandbox,
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
      budget: tuning.budget(),
      systemPrompt: (tools) => context.render(tools),
      describeContext: () => context.summary(),
      checkpoints: new FileCheckpoints(checkpoints, cwd),
    });
    // One session per process: its first prompt is rehearsed (an ACP process's sessions share one warm-up, made at `initialize`).
    // It takes the tools and the system prompt once `afterReady` has loaded them (`dispose` first: it is dropped).
    let startedUp!: (ended: boolean) => void;
    const startup = new Promise<boolean>((resolve) => (startedUp = resolve));
    if (options.mode !== "acp") {
      const rehearsal = {
        cwd,
        startup,
        tools: () => session.toolList(),
        systemPrompt: (tools: readonly AgentTool[]) => context.render(tools, false),
        redactor: registry.redactor,
      };
      ProviderWarmer.process.driveWith((model, start, signal) => SessionRehearsal.run(model, start, signal, rehearsal));
    }
    const catalog = new SessionCatalog(paths.sessionsDir, paths.sessionIndexFile);
    const tree = new SessionTree(
      { catalog, checkpoints, cwd, sessionsDir: options.noSession ? null : paths.sessionsDir, exportsDir: paths.exportsDir, redact },
      session,
      journal,
    );
    const library = new SessionLibrary({ catalog, cwd }, tree);
    // The one-shot modes have nobody to answer a permission request: such a call is denied at once.
    if (options.mode === "json" || options.mode === "print") session.approvals.answerable = false;
    const childSessions = new ChildSessionFactory({
      runtime: registry,
      cwd,
      journalDir: journal.file === null ? null : dirname(journal.file),
      redact,
      retry: tuning.retry(),
      compaction: tuning.compaction(),
      toolGuard: session.toolGate.check,
      sandbox,
      contextSections: () => context.childSections(),
    });
    extensions = new ExtensionRuntime({
      session,
      childSessions,
      cwd,
      ziHome: paths.ziHome,
      globalDir: paths.globalExtensionsDir,
      projectDir: paths.projectExtensionsDir,
      projectZiDir: paths.projectDir,
      cliPaths: options.extensions,
      projectTrusted,
      settings,
      untrustedReason,
      loadPlugins,
      secrets: { add: (value) => registry.credentials.addSecret(value), redact: (text) => registry.credentials.redact(text) },
      promptHooks: context.hooks,
      log: stderrLine,
    });
    // A resumed session states its model and thinking level in `ready`, or says `unselected` and then
    // refuses prompts exactly as a fresh session does: a model that resolves later would make `ready` lie.
    await session.ensureModelRestored();
    return new AgentSessionModule(session, extensions, registry, settings, context, library, tree, startedUp);
  }

  private static openJournal(options: ZiOptions, paths: ZiPaths, cwd: string, redact: (jsonLine: string) => string): SessionJournal {
    const sessionId = randomUuid();
    if (options.noSession) return SessionJournal.inMemory(sessionId, cwd, { redact });
    if (options.sessionFile === undefined) return SessionJournal.create(options.sessionDir ?? paths.sessionsDir, sessionId, cwd, { redact });
    if (!existsSync(options.sessionFile)) throw new Error(`session file ${options.sessionFile} does not exist`);
    return SessionJournal.open(options.sessionFile, { redact });
  }

  /**
   * Once `ready` is out: load the plugins (the coding tools among them) and extension files before the first request is admitted.
   */
  async afterReady(): Promise<void> {
    try {
      this.session.sandbox.afterReady();
      await Promise.all([this.extensions.load(), this.context.load()]);
    } finally {
      this.startedUp(true);
    }
  }

  /** The system prompt a run started now would send (`zi prompt`); call after `afterReady`. */
  systemPrompt(): Promise<string> {
    return this.context.render(this.session.toolList());
  }

  async restoreModel(): Promise<void> {
    await this.session.ensureModelRestored();
    const fallback = this.settings.getDefaultModel();
    if (this.session.getState().model.type === "unselected" && fallback) await this.models.select(fallback.provider, fallback.id);
  }

  reportUncaught(kind: "exception" | "rejection", error: unknown): boolean {
    return this.extensions.reportUncaught(kind, error);
  }

  /** Scrubs every credential value Zi knows of from `text` (the redaction frames get), for stderr. */
  redact(text: string): string {
    return this.registry.credentials.redact(text);
  }

  /** The same for JSON text: frames on their way out (docs/models.md says what this covers). */
  redactJson(text: string): string {
    return this.registry.credentials.redactJson(text);
  }

  /**
   * The client disconnected (or a signal arrived): an interrupt, which also discards its queued input,
   * denies every pending permission request and every later one.
   */
  async cancel(): Promise<void> {
    await this.session.interrupt("disconnect");
  }

  journalEntry(customType: string, data: unknown): void {
    this.session.appendCustomEntry(customType, data);
  }

  async dispose(): Promise<void> {
    this.startedUp(false); // a start-up that never ran holds no rehearsal
    await this.session.dispose();
    await this.extensions.dispose();
    this.library.close();
  }
}
