import { randomUUID } from "node:crypto";
import type { PluginServices } from "../../core/extensions/plugin-services.js";
import { RPC_LIMITS } from "../../core/wire/limits.js";
import { type AgentTool, type AgentToolContext, type AgentToolResult, MAX_ABORT_GRACE_MS } from "../../core/session/agent-tool.js";
import type { AgentSession } from "../../core/session/agent-session.js";
import type { ToolDeclaration } from "../../core/session/tool-declaration.js";
import type { AgentProfile } from "./agent-profile.js";
import { childTools, DELEGATE_TOOL } from "./child-tools.js";
import { delegateParameters, parseDelegateRequest, type DelegateRequest } from "./delegate-request.js";
import { DelegationProgress } from "./delegation-progress.js";
import { SubagentRun, type DelegatingSession, type SubagentReport } from "./subagent-run.js";

/** The parent is depth 0; its children 1; grandchildren (2) never get `delegate`. */
export const MAX_DELEGATION_DEPTH = 2;

export interface DelegateToolOptions {
  profiles: ReadonlyMap<string, AgentProfile>;
  /** The session whose model calls this tool: the entries go to its journal. */
  host: DelegatingSession;
  children: PluginServices["childSessions"];
  cwd: string;
  ziHome: string;
  logDir: string;
  /** The host's other tools (extension tools a profile may name). */
  parentTools(): readonly AgentTool[];
  /** The host session's depth. */
  depth: number;
  maxTasks?: number;
  maxConcurrent?: number;
}

/**
 * `delegate`: hands tasks to child sessions run by profiles. Single `{ profile, task }`, parallel
 * `{ tasks }` (at most `maxDelegateTasks`, at most `maxConcurrentSubagents` at once) or chain
 * `{ chain }` with `{previous}`. The result is the children's final texts; the evidence is the
 * `subagent` entries of the host's journal.
 */
export class DelegateTool implements AgentTool {
  readonly name = DELEGATE_TOOL;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
  /**
   * An interrupt stops every child (each child's own tools are abandoned at once), and the result
   * with each task's status and the children's end entries come before the interrupt is answered.
   */
  readonly abortGraceMs = MAX_ABORT_GRACE_MS;
  /** Its children's calls pass the gate themselves; the delegation itself only plans. */
  readonly declaration: ToolDeclaration = {
    effect: "other",
    display: "think",
    guideline: "Hand self-contained subtasks to specialised agents with delegate when that keeps your own context focused.",
    describe: () => ({ title: "Delegate to subagents", paths: [] }),
  };
  private readonly maxTasks: number;
  private readonly maxConcurrent: number;

  constructor(private readonly options: DelegateToolOptions) {
    this.maxTasks = options.maxTasks ?? RPC_LIMITS.maxDelegateTasks;
    this.maxConcurrent = options.maxConcurrent ?? RPC_LIMITS.maxConcurrentSubagents;
    this.parameters = delegateParameters([...options.profiles.keys()], this.maxTasks);
    this.description = [
      "Delegate self-contained tasks to sub-agents, each in a fresh context (it sees only its profile's instructions and your task text, never this conversation) with its own tools; you get back each one's final report.",
      `Forms: { profile, task }; { tasks: [{ profile, task }, ...] } runs up to ${this.maxTasks} tasks in parallel (${this.maxConcurrent} at a time); { chain: [{ profile, task }, ...] } runs steps in order, replacing {previous} in a task with the prior step's result.`,
      "Profiles:",
      ...[...options.profiles.values()].map((profile) => `- ${profile.name}: ${profile.description}`),
    ].join("\n");
  }

  async execute(args: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const request = parseDelegateRequest(args, this.options.profiles, this.maxTasks);
    const delegationId = randomUUID();
    let progress: DelegationProgress | undefined;
    const runs = request.tasks.map(
      ({ profile, task }, index) =>
        new SubagentRun(
          { delegationId, index, profile, task },
          {
            host: this.options.host,
            children: this.options.children,
            ziHome: this.options.ziHome,
            tools: (childProfile, child) => this.toolsFor(childProfile, child),
            onProgress: () => progress?.changed(),
          },
        ),
    );
    progress = new DelegationProgress(delegationId, runs, (partial) => context.onUpdate(partial));
    try {
      const reports = request.form === "chain" ? await this.chain(runs, context.signal) : await this.parallel(runs, context.signal);
      return DelegateTool.result(request, runs, reports, progress.snapshot().delegationId);
    } finally {
      progress.stop();
    }
  }

  private async parallel(runs: SubagentRun[], signal: AbortSignal): Promise<(SubagentReport | undefined)[]> {
    const reports: (SubagentReport | undefined)[] = runs.map(() => undefined);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < runs.length && !signal.aborted) {
        const index = next++;
        reports[index] = await runs[index]!.run(signal);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.maxConcurrent, runs.length) }, worker));
    return reports;
  }

  private async chain(runs: SubagentRun[], signal: AbortSignal): Promise<(SubagentReport | undefined)[]> {
    const reports: (SubagentReport | undefined)[] = runs.map(() => undefined);
    let previous = "";
    for (const [index, run] of runs.entries()) {
      if (signal.aborted) break;
      // A replacement function: a string would interpret `$&`, `$$`, `` $` `` and `$'` in the result.
      if (index > 0) run.spec.task = run.spec.task.replaceAll("{previous}", () => previous);
      const report = await run.run(signal);
      reports[index] = report;
      if (report.status !== "completed") break;
      previous = report.result;
    }
    return reports;
  }

  private toolsFor(profile: AgentProfile, child: AgentSession): AgentTool[] {
    const { cwd, logDir } = this.options;
    const depth = this.options.depth + 1;
    return childTools(profile, child, {
      cwd,
      logDir,
      parentTools: this.options.parentTools,
      delegateFor: (session) =>
        depth >= MAX_DELEGATION_DEPTH ? undefined : new DelegateTool({ ...this.options, host: session, depth, parentTools: () => session.toolList() }),
    });
  }

  private static result(request: DelegateRequest, runs: SubagentRun[], reports: (SubagentReport | undefined)[], delegationId: string): AgentToolResult {
    const tasks = runs.map((run, index) => {
      const report = reports[index];
      const base = { index, profile: run.spec.profile.name, status: report?.status ?? "not_started" };
      return report ? { ...base, turns: report.turns, toolCalls: report.toolCalls, durationMs: report.durationMs, usage: report.usage } : base;
    });
    const details = { delegationId, form: request.form, tasks };
    const body = (report: SubagentReport | undefined): string => {
      if (!report) return "(not started)";
      const error = report.error ? `[${report.status}: ${report.error}]` : report.status === "completed" ? "" : `[${report.status}]`;
      return [error, report.result || (report.status === "completed" ? "(no text)" : "")].filter((part) => part !== "").join("\n");
    };
    const completed = reports.filter((report) => report?.status === "completed").length;
    if (request.form === "single") {
      return { content: [{ type: "text", text: body(reports[0]) }], details, isError: completed === 0 };
    }
    const text = runs
      .map((run, index) => `### ${request.form === "chain" ? "Step" : "Task"} ${index + 1} (${run.spec.profile.name}): ${reports[index]?.status ?? "not started"}\n${body(reports[index])}`)
      .join("\n\n");
    return { content: [{ type: "text", text }], details, isError: completed === 0 };
  }
}
