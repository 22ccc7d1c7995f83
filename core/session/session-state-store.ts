import type * as PiAi from "@mariozechner/pi-ai";
import type { JournalEntry } from "../journal/journal-types.js";
import type { ResolvedModel } from "../models/model-runtime.js";
import type { SessionJournalLike, SessionSettings } from "./agent-session-options.js";
import { InputQueues } from "./input-queues.js";
import type { QueueKind } from "./input-queues.js";
import { publicModel } from "../models/public-model.js";
import { SessionEventBus } from "./session-event-bus.js";
import type {
  Activity,
  AgentSessionEvent,
  CompactionState,
  ContextUsage,
  PermissionRequest,
  PublicModel,
  QueuedInput,
  RetryState,
  SessionState,
  ThinkingLevel,
  WorkPlan, SandboxState, SessionEventOf } from "../wire/session-types.js";

type WaitingRetry = Extract<RetryState, { type: "waiting" }>;
type CompactionReason = Extract<CompactionState, { type: "compacting" }>["reason"];

/**
 * The session's live state. Every change goes through `commit`, which applies it and emits the one
 * event that announces it, so a client folding events over an earlier snapshot reproduces
 * `getState()`. Events that change nothing (`message_update`, ...) go through `emit`.
 */
export class SessionStateStore {
  readonly bus: SessionEventBus;
  readonly queues: InputQueues;
  private version = 0;
  private cached: { version: number; messageCount: number; state: SessionState } | undefined;
  private activityValue: Activity = { type: "idle" };
  private modelValue: ResolvedModel | undefined;
  /** The model's public descriptor, projected once per selection, not once per snapshot (a state change). */
  private publicValue: PublicModel | undefined;
  private thinking: ThinkingLevel = "off";
  private supported: ThinkingLevel[] = ["off"];
  private plan: WorkPlan;
  private compactionValue: CompactionState = { type: "idle" };
  private retryValue: RetryState = { type: "idle" };
  private permissions: PermissionRequest[] = [];
  private sandboxValue: SandboxState = { mode: "off", network: true, writableRoots: [], support: { status: "unchecked" } };
  /** Context tokens reported by the newest successful reply since the last compaction. */
  private usageTokens: number | undefined;

  constructor(
    private readonly journal: SessionJournalLike,
    settings: SessionSettings,
    warn: (message: string) => void,
  ) {
    this.queues = new InputQueues(settings.steeringMode ?? "one-at-a-time", settings.followUpMode ?? "one-at-a-time");
    this.bus = new SessionEventBus(() => this.snapshot(), warn);
    this.plan = journal.workPlan;
    for (const entry of journal.entries()) this.trackUsage(entry);
  }

  /**
   * Another journal became the session's: its work plan and context usage, then `event` (built from
   * the new snapshot). Queued input is discarded first (announced), as it was meant for the old one.
   */
  async journalReplaced(event: (state: SessionState) => AgentSessionEvent): Promise<void> {
    this.clearQueues();
    await this.commit(() => {
      this.plan = this.journal.workPlan;
      this.usageTokens = undefined;
      for (const entry of this.journal.pathEntries()) this.trackUsage(entry);
    }, () => event(this.snapshot()));
  }

  /** The leaf moved within the journal: `event` once the new path's counts are in the state. */
  leafMoved(event: AgentSessionEvent): Promise<void> {
    return this.commit(() => {
      this.usageTokens = undefined;
      for (const entry of this.journal.pathEntries()) this.trackUsage(entry);
    }, event);
  }

  /** The sandbox as the state shows it (SandboxControl keeps it current); no event: clients read it from the state. */
  setSandbox(state: SandboxState): void {
    this.sandboxValue = structuredClone(state);
    this.version++;
  }

  get activity(): Activity {
    return this.activityValue;
  }

  get model(): ResolvedModel | undefined {
    return this.modelValue;
  }

  get thinkingLevel(): ThinkingLevel {
    return this.thinking;
  }

  get supportedThinkingLevels(): ThinkingLevel[] {
    return [...this.supported];
  }

  get workPlan(): WorkPlan {
    return this.plan;
  }

  get contextTokens(): number | undefined {
    return this.usageTokens;
  }

  /**
   * The state as of the events delivered so far. Snapshots are frozen when taken, so the same object
   * is handed out until the next change instead of a copy per read.
   */
  getState(): SessionState {
    return this.bus.deliveredState ?? this.snapshot();
  }

  emit(event: AgentSessionEvent): Promise<void> {
    return this.bus.emit(event);
  }

  /** `emit` without a promise when the event was accepted at once (SessionEventBus.offer). */
  offer(event: AgentSessionEvent): Promise<void> | undefined {
    return this.bus.offer(event);
  }

  setActivity(activity: Activity): Promise<void> {
    const current = this.activityValue;
    const same =
      current.type === activity.type &&
      (current.type !== "failed" || current.errorMessage === (activity as { errorMessage?: string }).errorMessage);
    if (same) return Promise.resolve();
    return this.commit(() => (this.activityValue = activity), { type: "activity_changed", activity });
  }

  setModel(model: ResolvedModel): Promise<void> {
    return this.commit(
      () => {
        this.modelValue = model;
        this.publicValue = publicModel(model.descriptor);
        this.supported = [...model.supportedThinkingLevels];
      },
      () => ({
        type: "model_changed",
        model: publicModel(model.descriptor),
        supportedThinkingLevels: [...this.supported],
        contextUsage: this.contextUsage(),
      }),
    );
  }

  setThinkingLevel(level: ThinkingLevel): Promise<void> {
    if (level === this.thinking) return Promise.resolve();
    return this.commit(() => (this.thinking = level), { type: "thinking_level_changed", thinkingLevel: level });
  }

  /** Why `input` cannot be queued now (the queues are at their bound), or undefined. */
  queueRefusal(input: QueuedInput): string | undefined {
    return this.queues.refusal(input);
  }

  enqueue(kind: QueueKind, input: QueuedInput): Promise<void> {
    return this.commit(() => this.queues.push(kind, input), () => this.queueEvent());
  }

  /** Takes one delivery point's worth of `kind` (announced only if something was taken). */
  take(kind: QueueKind): QueuedInput[] {
    if (!this.queues.has(kind)) return [];
    let taken: QueuedInput[] = [];
    void this.commit(() => (taken = this.queues.take(kind)), () => this.queueEvent());
    return taken;
  }

  clearQueues(): void {
    if (this.queues.size === 0) return;
    void this.commit(() => this.queues.clear(), () => this.queueEvent());
  }

  setWorkPlan(plan: WorkPlan): Promise<void> {
    return this.commit(() => (this.plan = plan), { type: "work_plan_changed", workPlan: structuredClone(plan) });
  }

  startCompaction(reason: CompactionReason): Promise<void> {
    return this.commit(() => (this.compactionValue = { type: "compacting", reason }), { type: "compaction_start", reason });
  }

  endCompaction(result: { reason: CompactionReason; summary?: string; aborted?: true; errorMessage?: string }): Promise<void> {
    return this.commit(() => (this.compactionValue = { type: "idle" }), { type: "compaction_end", ...result });
  }

  startRetry(waiting: Omit<WaitingRetry, "type">): Promise<void> {
    return this.commit(() => (this.retryValue = { type: "waiting", ...waiting }), { type: "auto_retry_start", ...waiting });
  }

  endRetry(result: { success: boolean; attempt: number; finalError?: string }): Promise<void> {
    return this.commit(() => (this.retryValue = { type: "idle" }), { type: "auto_retry_end", ...result });
  }

  /** A tool call starts waiting for a permission decision (`permission_requested`). */
  openPermissionRequest(request: PermissionRequest): Promise<void> {
    return this.commit(() => (this.permissions = [...this.permissions, request]), { type: "permission_requested", ...structuredClone(request) });
  }

  /** A permission request was settled (`permission_resolved` carries the decision). */
  closePermissionRequest(requestId: string, resolved: SessionEventOf<"permission_resolved">): Promise<void> {
    return this.commit(() => (this.permissions = this.permissions.filter((request) => request.requestId !== requestId)), resolved);
  }

  /** Announces an entry the journal just wrote (its message count and usage changed with it). */
  entryAppended(entry: JournalEntry): Promise<void> {
    return this.commit(() => this.trackUsage(entry), { type: "entry_appended", entry });
  }

  contextUsage(): ContextUsage {
    const model = this.modelValue;
    if (!model) return { type: "unavailable", reason: "no_model" };
    if (this.usageTokens === undefined) return { type: "unavailable", reason: "no_usage" };
    const { contextWindow } = model.descriptor;
    const percent = contextWindow > 0 ? Math.round((this.usageTokens / contextWindow) * 1000) / 10 : 0;
    return { type: "available", tokens: this.usageTokens, contextWindow, percent };
  }

  private commit(mutate: () => void, event: AgentSessionEvent | (() => AgentSessionEvent)): Promise<void> {
    mutate();
    this.version++;
    return this.bus.emit(typeof event === "function" ? event() : event);
  }

  private queueEvent(): AgentSessionEvent {
    return { type: "queue_update", ...this.queues.snapshot() };
  }

  private trackUsage(entry: JournalEntry): void {
    if (entry.type === "compaction") this.usageTokens = undefined;
    if (entry.type !== "message") return;
    const tokens = SessionStateStore.replyTokens(entry.message);
    if (tokens !== undefined) this.usageTokens = tokens;
  }

  /** The context size a successful reply reports; failed and aborted replies measure nothing. */
  static replyTokens(message: PiAi.Message): number | undefined {
    if (message.role !== "assistant" || message.stopReason === "error" || message.stopReason === "aborted") return undefined;
    const usage = message.usage;
    if (!usage) return undefined;
    const tokens = usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    return tokens > 0 ? tokens : undefined;
  }

  private snapshot(): SessionState {
    const messageCount = this.journal.messageCount;
    const cached = this.cached;
    if (cached && cached.version === this.version && cached.messageCount === messageCount) return cached.state;
    const model = this.publicValue;
    const state: SessionState = {
      sessionId: this.journal.sessionId,
      activity: { ...this.activityValue },
      // Its own `input`: the snapshot is frozen, the projection is kept.
      model: model ? { type: "selected", ...model, input: [...model.input] } : { type: "unselected" },
      thinkingLevel: this.thinking,
      supportedThinkingLevels: [...this.supported],
      steeringMode: this.queues.steeringMode,
      followUpMode: this.queues.followUpMode,
      queuedInputs: this.queues.snapshot(),
      workPlan: structuredClone(this.plan),
      messageCount,
      compaction: { ...this.compactionValue },
      retry: { ...this.retryValue },
      contextUsage: this.contextUsage(),
      permissionRequests: structuredClone(this.permissions),
      sandbox: structuredClone(this.sandboxValue),
    };
    deepFreeze(state);
    this.cached = { version: this.version, messageCount, state };
    return state;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
