import type { ExtensionSession } from "../../core/extensions/extension-types.js";
import { RpcError } from "../../core/kernel/rpc-error.js";
import type { AgentTool } from "../../core/session/agent-tool.js";
import type { ToolCallHook } from "../../core/session/tool-call-gate.js";
import type { AgentSessionEvent, SessionEventListener, SessionState, WorkPlan, WorkPlanStep } from "../../core/wire/session-types.js";

/**
 * Stands in for the AgentSession behind extensions: records what extensions write, holds the
 * registered tools, and emits events to subscribers. runExclusive is idle-only like the real one.
 */
export class FakeExtensionSession implements ExtensionSession {
  readonly tools = new Map<string, AgentTool>();
  readonly entries: { type: string; [key: string]: unknown }[] = [];
  activity: "idle" | "running" = "idle";
  private plan: WorkPlan = { revision: 0, steps: [] };
  private listeners: SessionEventListener[] = [];
  private exclusive: AbortController | undefined;

  registerTool(tool: AgentTool): void {
    this.tools.set(tool.name, tool);
  }

  removeTool(name: string): void {
    this.tools.delete(name);
  }

  readonly modelCallHooks = new Set<(signal: AbortSignal) => Promise<void>>();

  onBeforeModelCall(hook: (signal: AbortSignal) => Promise<void>): () => void {
    this.modelCallHooks.add(hook);
    return () => void this.modelCallHooks.delete(hook);
  }

  readonly toolCallHooks: { owner: string; hook: ToolCallHook }[] = [];

  addToolCallHook(owner: string, hook: ToolCallHook): void {
    this.toolCallHooks.push({ owner, hook });
  }

  appendCustomEntry(customType: string, data?: unknown) {
    return this.append({ type: "custom", customType, data });
  }

  sendCustomMessage(input: { customType: string; content: string; display: boolean; details?: unknown }) {
    return this.append({ type: "custom_message", ...input });
  }

  recordOutcome(input: any) {
    const entry = this.append({ type: "operation_outcome", ...input });
    return { ...input, id: entry.id, parentId: null, timestamp: entry.timestamp };
  }

  replaceWorkPlan(steps: WorkPlanStep[]): WorkPlan {
    this.plan = { revision: this.plan.revision + 1, steps };
    this.append({ type: "work_plan", workPlan: this.plan });
    return this.plan;
  }

  getState(): SessionState {
    return { activity: { type: this.activity }, workPlan: this.plan, messageCount: 0 } as unknown as SessionState;
  }

  subscribe(listener: SessionEventListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => (this.listeners = this.listeners.filter((l) => l !== listener));
  }

  get listenerCount(): number {
    return this.listeners.length;
  }

  emit(event: AgentSessionEvent): void {
    for (const listener of this.listeners) void listener(event);
  }

  async announce(event: AgentSessionEvent): Promise<void> {
    this.emit(event);
  }

  async runExclusive<T>(_activity: string, operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.activity !== "idle") throw new RpcError("operation_failed", "session is running; wait until it is idle");
    this.activity = "running";
    this.exclusive = new AbortController();
    try {
      return await operation(this.exclusive.signal);
    } finally {
      this.exclusive = undefined;
      this.activity = "idle";
    }
  }

  /** Like session.interrupt: aborts the exclusive operation's signal. */
  interrupt(): void {
    this.exclusive?.abort();
  }

  private append(fields: Record<string, unknown>) {
    const entry = { ...fields, type: String(fields.type), id: `e${this.entries.length + 1}`, parentId: null, timestamp: new Date(0).toISOString() };
    this.entries.push(entry);
    this.emit({ type: "entry_appended", entry });
    return entry as any;
  }
}
