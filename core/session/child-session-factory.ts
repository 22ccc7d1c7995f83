import type { SandboxControl } from "../sandbox/sandbox-control.js";
import { randomUuid } from "../journal/random-uuid.js";
import { SessionJournal } from "../journal/session-journal.js";
import type { ModelRuntime } from "../models/model-runtime.js";
import type { AgentTool } from "./agent-tool.js";
import { AgentSession } from "./agent-session.js";
import type { CompactionSettings, RetrySettings } from "./agent-session-options.js";
import type { DelegationOrigin, ThinkingLevel } from "../wire/session-types.js";
import type { ToolCallGuard } from "./tool-call-gate.js";

export interface ChildSessionSpec {
  /** The profile's name: it labels the child's model calls (so a faux script can answer them). */
  agent: string;
  systemPrompt: string;
  model: { provider: string; id: string };
  thinkingLevel: ThinkingLevel;
  /** Built once the child exists, so tools can be bound to it (e.g. its own `update_plan`). */
  tools(child: AgentSession): AgentTool[];
  /** Which delegated task this child runs: its tool calls reach the parent's gate marked with it. */
  delegation?: DelegationOrigin;
}

export interface ChildSession {
  readonly session: AgentSession;
  readonly sessionId: string;
  /** The child's journal file, or null when it lives in memory (a `--no-session` parent). */
  readonly journalFile: string | null;
  /** Interrupts whatever still runs, then closes the journal. Idempotent. */
  close(): Promise<void>;
}

export interface ChildSessionFactoryOptions {
  runtime: ModelRuntime;
  cwd: string;
  /** Where children's journals go: the parent journal's directory, or null to keep them in memory. */
  journalDir: string | null;
  /** Scrubs known credentials from the children's journal lines, as the parent's. */
  redact?: (jsonLine: string) => string;
  retry?: Partial<RetrySettings>;
  compaction?: Partial<CompactionSettings>;
  /** The parent session's tool-call gate: children's calls pass the same hooks and policy. */
  toolGuard?: ToolCallGuard;
  /** The parent session's sandbox: children's commands run in the same one. */
  sandbox?: SandboxControl;
  /**
   * What every child's prompt gets after its profile's own: the parent session's environment and
   * project-context sections (docs/context.md), read when the child is created.
   */
  contextSections?: () => string;
}

/**
 * Creates the isolated child sessions of delegation: an AgentSession of its own, with a fresh journal
 * (only the profile's system prompt, the parent's environment and project context, and the task will ever be in its context), its own tools and model,
 * sharing only the parent's model runtime (catalogue, credentials, faux models).
 */
export class ChildSessionFactory {
  private readonly observers = new Set<(child: ChildSession, spec: ChildSessionSpec) => void>();

  constructor(private readonly options: ChildSessionFactoryOptions) {}

  /** Told of every child once it exists, before its first prompt (the telemetry plugin follows its events). */
  observe(listener: (child: ChildSession, spec: ChildSessionSpec) => void): () => void {
    this.observers.add(listener);
    return () => void this.observers.delete(listener);
  }

  async create(spec: ChildSessionSpec): Promise<ChildSession> {
    const { cwd, journalDir, retry, compaction, toolGuard } = this.options;
    const delegation = spec.delegation;
    const sessionId = randomUuid();
    const options = { redact: this.options.redact };
    const journal = journalDir === null ? SessionJournal.inMemory(sessionId, cwd, options) : SessionJournal.create(journalDir, sessionId, cwd, options);
    const session = new AgentSession({
      runtime: ChildSessionFactory.labelled(this.options.runtime, spec.agent),
      journal,
      cwd,
      systemPrompt: [spec.systemPrompt, this.options.contextSections?.() ?? ""].filter((part) => part !== "").join("\n\n"),
      settings: { thinkingLevel: spec.thinkingLevel },
      retry,
      compaction,
      toolGuard: toolGuard && ((call, validate, signal) => toolGuard(delegation ? { ...call, delegation } : call, validate, signal)),
      ...(this.options.sandbox ? { sandbox: this.options.sandbox } : {}),
    });
    let closed: Promise<void> | undefined;
    const close = () =>
      (closed ??= session.dispose().finally(() => journal.close()));
    try {
      session.setTools(spec.tools(session));
      await session.models.select(spec.model.provider, spec.model.id);
    } catch (error) {
      await close();
      throw error;
    }
    const child: ChildSession = { session, sessionId, journalFile: journal.file, close };
    for (const observer of this.observers) observer(child, spec);
    return child;
  }

  /** The parent's runtime, with every model call marked as this child's. */
  private static labelled(runtime: ModelRuntime, agent: string): ModelRuntime {
    return {
      list: () => runtime.list(),
      resolve: (provider, id) => runtime.resolve(provider, id),
      stream: (model, context, options) => runtime.stream(model, context, { ...options, agent }),
      classifyError: (message, model) => runtime.classifyError(message, model),
      clampThinking: (model, level) => runtime.clampThinking(model, level),
    };
  }
}
