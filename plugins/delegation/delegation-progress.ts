import type { AgentToolResult } from "../../core/session/agent-tool.js";
import type { SubagentRun } from "./subagent-run.js";

/** At most this often a `tool_execution_update` (the last change is always sent, at most this late). */
export const PROGRESS_INTERVAL_MS = 250;

/**
 * The compact progress of one `delegate` call on the parent's `tool_execution_update`: per task its
 * status, turns and last tool name, never the children's own deltas. Throttled: a change is sent at
 * once when the last update is older than the interval, otherwise at the end of the interval.
 */
export class DelegationProgress {
  private lastSentAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly delegationId: string,
    private readonly runs: readonly SubagentRun[],
    private readonly send: (partial: AgentToolResult) => void,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
  ) {}

  changed(): void {
    if (this.stopped || this.timer) return;
    const wait = this.lastSentAt + this.intervalMs - Date.now();
    if (wait <= 0) return this.flush();
    this.timer = setTimeout(() => this.flush(), wait);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  snapshot(): { delegationId: string; tasks: { index: number; profile: string; status: string; turns: number; lastTool: string | null }[] } {
    return {
      delegationId: this.delegationId,
      tasks: this.runs.map((run) => ({
        index: run.spec.index,
        profile: run.spec.profile.name,
        status: run.status,
        turns: run.turns,
        lastTool: run.lastTool ?? null,
      })),
    };
  }

  private flush(): void {
    this.timer = undefined;
    if (this.stopped) return;
    this.lastSentAt = Date.now();
    const details = this.snapshot();
    const line = details.tasks
      .map((task) => `${task.index + 1}. ${task.profile}: ${task.status}, ${task.turns} turn(s)${task.lastTool ? `, last tool ${task.lastTool}` : ""}`)
      .join("\n");
    this.send({ content: [{ type: "text", text: line }], details });
  }
}
