import { AgentContextLoader, type AgentContextInput } from "./agent-context-loader.js";
import type { ContextProblem, ContextSummary, LoadedContext } from "./context-types.js";
import { SystemPromptBuilder, type PromptTool } from "./system-prompt-builder.js";
import { SystemPromptHooks } from "./system-prompt-hooks.js";

export interface SessionContextOptions extends AgentContextInput {
  /** One line to stderr. */
  log: (line: string) => void;
  /** Announces a problem: one stderr line and one `extension_error` (the extension host's reporter). */
  report: (problem: ContextProblem) => Promise<void>;
}

/**
 * A session's context: loaded once per process start, rendered into a system prompt at the start of
 * every run with the tools of that moment and what the extensions' hooks add. The one place that
 * decides what the model is told, so `zi prompt` and a run cannot disagree.
 */
export class SessionContext {
  readonly hooks: SystemPromptHooks;
  private readonly builder = new SystemPromptBuilder();
  private loading: Promise<LoadedContext> | undefined;
  private loaded: LoadedContext | undefined;

  constructor(private readonly options: SessionContextOptions) {
    this.hooks = new SystemPromptHooks(options.log);
  }

  /** Reads the files (once) and reports each problem; later calls share the first load. */
  load(): Promise<LoadedContext> {
    return (this.loading ??= this.read());
  }

  /**
   * The system prompt of a run that offers `tools`. Without `hooks`, the extensions' hooks are not
   * asked (a rehearsal's prompt, SessionRehearsal: no extension may see a run that is not one).
   */
  async render(tools: readonly PromptTool[], hooks = true): Promise<string> {
    const context = await this.load();
    const additions = hooks ? await this.hooks.collect({ cwd: context.environment.cwd, tools: tools.map((tool) => tool.name) }) : [];
    return this.builder.build(context, tools, additions);
  }

  /** The environment and project-context sections a delegated child adds to its profile's prompt. */
  childSections(): string {
    return this.loaded ? this.builder.childSections(this.loaded) : "";
  }

  summary(): ContextSummary | undefined {
    const context = this.loaded;
    if (!context) return undefined;
    const systemFiles: ContextSummary["systemFiles"] = [];
    for (const [file, role] of [[context.system, "system"], ...context.appends.map((file) => [file, "append"] as const)] as const) {
      if (file) systemFiles.push(file.clipped ? { path: file.path, role, clipped: true } : { path: file.path, role });
    }
    return {
      cwd: context.environment.cwd,
      gitRoot: context.environment.gitRoot,
      projectTrusted: context.projectTrusted,
      contextFiles: context.contextFiles.map((file) => (file.clipped ? { path: file.path, clipped: file.clipped } : { path: file.path })),
      systemFiles,
      skills: context.skills,
      shadowedSkills: context.shadowedSkills,
      omittedSkills: context.omittedSkills,
      problems: context.problems,
    };
  }

  private async read(): Promise<LoadedContext> {
    const context = await AgentContextLoader.load(this.options);
    for (const problem of context.problems) await this.options.report(problem).catch(() => undefined);
    for (const skill of context.shadowedSkills) {
      this.options.log(`zi: skill "${skill.name}" at ${skill.path} is shadowed by ${skill.shadowedBy}`);
    }
    this.loaded = context;
    return context;
  }
}
