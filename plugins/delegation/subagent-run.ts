import { relative, isAbsolute } from "node:path";
import type * as PiAi from "@mariozechner/pi-ai";
import type { PluginServices } from "../../core/extensions/plugin-services.js";
import type { AgentTool } from "../../core/session/agent-tool.js";
import type { AgentSession } from "../../core/session/agent-session.js";
import type { ChildSession } from "../../core/session/child-session-factory.js";
import type { AgentSessionEvent, SessionEventOf, SessionState } from "../../core/wire/session-types.js";
import { clipUtf8 } from "../../core/wire/utf8-clip.js";
import type { AgentProfile } from "./agent-profile.js";
import {
  SUBAGENT_RESULT_MAX_BYTES,
  SUBAGENT_TASK_MAX_BYTES,
  type SubagentEndData,
  type SubagentStartData,
  type SubagentStatus,
  type SubagentUsage,
} from "./subagent-entry.js";

const COMPLETION_ID = "delegate";

/** The session a `delegate` call belongs to: its entries go to this session's journal. */
export type DelegatingSession = Pick<AgentSession, "appendSubagentEntry" | "getState">;

export interface SubagentRunDeps {
  host: DelegatingSession;
  children: PluginServices["childSessions"];
  ziHome: string;
  /** The child's tools, built once the child session exists. */
  tools(profile: AgentProfile, child: AgentSession): AgentTool[];
  /** Called whenever the child's status, turns or last tool change. */
  onProgress(): void;
}

export interface SubagentTask {
  delegationId: string;
  index: number;
  profile: AgentProfile;
  /** Mutable: a chain step's `{previous}` is filled in just before it runs. */
  task: string;
}

/** What a finished child reports to the tool (the end entry's fields). */
export type SubagentReport = Omit<SubagentEndData, "phase" | "delegationId" | "index" | "profile" | "childSessionId">;

/**
 * One delegated task in its own child session: start entry, the child's run with its budgets, the
 * end entry. Never throws: every way a child can end is a status in its report.
 */
export class SubagentRun {
  status: "pending" | "running" | SubagentStatus = "pending";
  turns = 0;
  toolCalls = 0;
  lastTool: string | undefined;
  private readonly usage: SubagentUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0 };
  private budget: string | undefined;
  private child: ChildSession | undefined;

  constructor(
    readonly spec: SubagentTask,
    private readonly deps: SubagentRunDeps,
  ) {}

  async run(signal: AbortSignal): Promise<SubagentReport> {
    const started = Date.now();
    this.status = "running";
    this.deps.onProgress();
    let childSessionId: string | null = null;
    let report: SubagentReport;
    try {
      const model = this.model(this.deps.host.getState());
      const child = await this.deps.children.create({
        agent: this.spec.profile.name,
        systemPrompt: this.spec.profile.systemPrompt,
        model,
        thinkingLevel: this.spec.profile.thinking ?? this.deps.host.getState().thinkingLevel,
        tools: (session) => this.deps.tools(this.spec.profile, session),
        delegation: { delegationId: this.spec.delegationId, index: this.spec.index, profile: this.spec.profile.name },
      });
      this.child = child;
      childSessionId = child.sessionId;
      this.appendStart(child, `${model.provider}/${model.id}`);
      report = await this.drive(child, signal, started);
    } catch (error) {
      if (childSessionId === null) this.appendStart(undefined, null);
      report = this.report("failed", started, { text: "", textTruncated: false }, (error as Error).message ?? String(error));
    } finally {
      await this.child?.close().catch(() => undefined);
    }
    this.status = report.status;
    this.deps.onProgress();
    const { delegationId, index, profile } = this.spec;
    try {
      this.deps.host.appendSubagentEntry({ phase: "end", delegationId, index, profile: profile.name, childSessionId, ...report } satisfies SubagentEndData);
    } catch (error) {
      // The parent's journal was closed under us (Zi shutting down) or could not be written: the
      // report still reaches the model; the missing end entry is what a crash would leave too.
      process.stderr.write(`zi: delegation: the end entry of task ${index} (${profile.name}) was not journaled: ${(error as Error).message}\n`);
    }
    return report;
  }

  private model(state: SessionState): { provider: string; id: string } {
    if (this.spec.profile.model) return this.spec.profile.model;
    if (state.model.type !== "selected") throw new Error("no model: the profile names none and the parent has none selected");
    return { provider: state.model.provider, id: state.model.id };
  }

  /** `child` is undefined when the child session could not be created (the end entry says why). */
  private appendStart(child: ChildSession | undefined, model: string | null): void {
    const task = clipUtf8(this.spec.task, SUBAGENT_TASK_MAX_BYTES);
    let childJournal: string | null = null;
    if (child && child.journalFile !== null) {
      const inHome = relative(this.deps.ziHome, child.journalFile);
      childJournal = inHome.startsWith("..") || isAbsolute(inHome) ? child.journalFile : inHome;
    }
    const { delegationId, index, profile } = this.spec;
    this.deps.host.appendSubagentEntry({
      phase: "start",
      delegationId,
      index,
      profile: profile.name,
      model,
      task: task.text,
      taskTruncated: task.truncated,
      childSessionId: child?.sessionId ?? null,
      childJournal,
    } satisfies SubagentStartData);
  }

  private async drive(child: ChildSession, signal: AbortSignal, started: number): Promise<SubagentReport> {
    const session = child.session;
    let end: SessionEventOf<"agent_end"> | undefined;
    const stop = (budget?: string): void => {
      if (budget !== undefined) this.budget ??= budget;
      void session.interrupt();
    };
    const unsubscribe = session.subscribe((event) => {
      if (event.type === "agent_end") end = event;
      else this.observe(event, stop);
    });
    const onAbort = (): void => stop();
    signal.addEventListener("abort", onAbort, { once: true });
    const { maxRuntimeSeconds } = this.spec.profile;
    const timer = maxRuntimeSeconds === undefined ? undefined : setTimeout(() => stop(`maxRuntimeSeconds (${maxRuntimeSeconds}) reached`), maxRuntimeSeconds * 1000);
    try {
      if (signal.aborted) return this.report("interrupted", started, { text: "", textTruncated: false });
      await session.prompt({ delivery: "direct", text: this.spec.task, completionId: COMPLETION_ID });
      const idle = await session.awaitIdle(COMPLETION_ID, new AbortController().signal);
      const completion = "completion" in idle ? idle.completion : null;
      const text = { text: completion?.text ?? "", textTruncated: completion?.textTruncated ?? false };
      // agent_end is delivered before the idle answer; the reply's stop reason is only a fallback.
      const stopReason = completion?.stopReason;
      const reason = end?.reason ?? (stopReason === "error" ? "failed" : stopReason === "aborted" || stopReason === undefined ? "interrupted" : "completed");
      if (reason === "completed") return this.report("completed", started, text);
      if (reason === "failed") return this.report("failed", started, text, String(end?.errorMessage ?? completion?.errorMessage ?? "the child's run failed"));
      if (this.budget !== undefined) return this.report("budget_exceeded", started, text, this.budget);
      return this.report("interrupted", started, text);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      unsubscribe();
    }
  }

  private observe(event: AgentSessionEvent, stop: (budget: string) => void): void {
    switch (event.type) {
      case "tool_execution_start":
        this.toolCalls++;
        this.lastTool = String(event.toolName);
        break;
      case "message_end": {
        const message = event.message as PiAi.Message;
        if (message.role === "assistant") this.addUsage(message.usage);
        return;
      }
      case "turn_end": {
        this.turns++;
        const { maxTurns } = this.spec.profile;
        // A turn that called tools would be followed by another model call: that one is over budget.
        const more = Array.isArray(event.toolResults) && event.toolResults.length > 0;
        if (maxTurns !== undefined && this.turns >= maxTurns && more) stop(`maxTurns (${maxTurns}) reached`);
        break;
      }
      default:
        return;
    }
    this.deps.onProgress();
  }

  private addUsage(usage: PiAi.Usage | undefined): void {
    if (!usage) return;
    this.usage.input += usage.input ?? 0;
    this.usage.output += usage.output ?? 0;
    this.usage.cacheRead += usage.cacheRead ?? 0;
    this.usage.cacheWrite += usage.cacheWrite ?? 0;
    this.usage.totalTokens += usage.totalTokens ?? 0;
    this.usage.cost += usage.cost?.total ?? 0;
  }

  private report(status: SubagentStatus, started: number, text: { text: string; textTruncated: boolean }, error?: string): SubagentReport {
    const result = clipUtf8(text.text, SUBAGENT_RESULT_MAX_BYTES);
    const report: SubagentReport = {
      status,
      turns: this.turns,
      toolCalls: this.toolCalls,
      usage: { ...this.usage },
      durationMs: Date.now() - started,
      result: result.text,
      resultTruncated: result.truncated || text.textTruncated,
    };
    if (error !== undefined) report.error = error;
    return report;
  }
}
