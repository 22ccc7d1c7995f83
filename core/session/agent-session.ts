import type { ContextSummary } from "../wire/context-summary.js";
import type { JournalEntry, JournalEntryInput } from "../journal/journal-types.js";
import { warnOnStderr } from "../config/stderr-warning.js";
import { RpcError } from "../kernel/rpc-error.js";
import { PiAiLoader } from "../models/pi-ai-loader.js";
import type { CompactResult, SessionPort } from "../ports/session.port.js";
import type { AgentTool } from "./agent-tool.js";
import { AgentRunLoop } from "./agent-run-loop.js";
import type { RunEnd, RunGuard } from "./agent-run-loop.js";
import { SessionBudget } from "./session-budget.js";
import { StructuredOutput } from "./structured-output.js";
import type { BudgetReport, BudgetSettings } from "../wire/budget-types.js";
import { DEFAULT_COMPACTION, DEFAULT_RETRY } from "./agent-session-options.js";
import type { AgentSessionOptions, SessionJournalLike } from "./agent-session-options.js";
import { AssistantStreamer } from "./assistant-streamer.js";
import { CompletionTracker } from "./completion-tracker.js";
import { IdleWatchers } from "./idle-watchers.js";
import { contextMessages } from "./model-context.js";
import { RetryPolicy } from "./retry-policy.js";
import { SessionCompactor } from "./session-compactor.js";
import { SessionModels } from "./session-models.js";
import { JournalAppender } from "./journal-appender.js";
import { JournalHandle } from "./journal-handle.js";
import { ExtensionRecords } from "./extension-records.js";
import type { CustomMessageInput, OutcomeInput } from "./extension-records.js";
import { SessionStateStore } from "./session-state-store.js";
import { SessionThinking } from "./session-thinking.js";
import type {
  AgentSessionEvent,
  AwaitIdleResult,
  MessagePage,
  OperationOutcome,
  OutcomePage,
  PromptInput,
  PromptResult,
  QueuedInput,
  SessionEventListener,
  SessionState,
  SessionUsage,
  WorkPlan,
  WorkPlanStep,
  SessionEventOf,
} from "../wire/session-types.js";
import { ToolRunner } from "./tool-runner.js";
import { ToolApprovals } from "./tool-approvals.js";
import { ToolCallGate, type ToolCallHook } from "./tool-call-gate.js";
import { UsageLedger } from "./usage-ledger.js";
import { describedToolCall } from "./tool-declaration.js";
import { SandboxControl } from "../sandbox/sandbox-control.js";
import { DEFAULT_SANDBOX } from "../sandbox/sandbox-settings.js";
import type { DescribedToolCall } from "../ports/session.port.js";
import { clipUtf8 } from "../wire/utf8-clip.js";
import { RPC_LIMITS } from "../wire/limits.js";

interface ActiveWork {
  abort: AbortController;
  done: Promise<unknown>;
  /** The `maxSeconds` timer, and whether it fired (the abort is then a budget's, not an interrupt). */
  timer?: NodeJS.Timeout;
  timeUp?: boolean;
  startedAt?: number;
}

const refused = (message: string): RpcError => new RpcError("operation_failed", message);

/**
 * The one authoritative session behind RPC: admits prompts into runs and queues, interrupts, and
 * reports idleness and completion evidence. Activity:
 * - `idle`: nothing runs; `failed`: the last run ended with a provider error that was not (or no
 *   longer) retried. Both are settled: await_idle resolves, steer/follow_up queue, direct starts a
 *   run. `failed` rejects continue (it would replay the failing context); `interrupt` acknowledges
 *   the failure and returns to `idle`.
 * - `running` (a run, or an exclusive operation such as a command), `compacting` (inside a run, or
 *   a manual compaction), `aborting` (interrupt requested), `reloading`, `disposed`.
 */
export class AgentSession implements SessionPort {
  readonly models: SessionModels;
  readonly thinking: SessionThinking;
  /** Every tool call passes it before it runs: extension hooks, then the policy the permissions plugin sets. */
  readonly toolGate: ToolCallGate;
  /** Tool calls waiting for a client's decision (in the state as `permissionRequests`). */
  readonly approvals: ToolApprovals;
  private readonly journal: JournalHandle;
  private readonly recorder: JournalAppender;
  private readonly store: SessionStateStore;
  private readonly tracker = new CompletionTracker();
  private readonly records: ExtensionRecords;
  private readonly compactor: SessionCompactor;
  private readonly loop: AgentRunLoop;
  private readonly tools = new Map<string, AgentTool>();
  private readonly modelCallHooks = new Set<(signal: AbortSignal) => Promise<void>>();
  private readonly watchers: IdleWatchers;
  private readonly usage: UsageLedger;
  private readonly budget: SessionBudget;
  private readonly describeContext: (() => ContextSummary | undefined) | undefined;
  private run: ActiveWork | undefined;
  private exclusive: ActiveWork | undefined;
  private closing = false;

  private readonly cwd: string;
  /** Where `bash` runs; `permission.set_sandbox` changes it through the permissions plugin. */
  readonly sandbox: SandboxControl;
  private readonly unobserveSandbox: () => void;

  constructor(options: AgentSessionOptions) {
    const { runtime } = options;
    const warn = options.warn ?? warnOnStderr;
    const journal = new JournalHandle(options.journal);
    this.journal = journal;
    this.watchers = new IdleWatchers(this.tracker, () => journal.messageCount);
    this.store = new SessionStateStore(journal, options.settings ?? {}, warn);
    this.describeContext = options.describeContext;
    this.usage = new UsageLedger(journal.entries());
    this.budget = new SessionBudget(this.usage, () => this.store.model, options.budget, warn);
    const recorder = new JournalAppender(journal, this.store, this.tracker, this.usage);
    this.recorder = recorder;
    this.records = new ExtensionRecords(journal, this.store, recorder);
    this.cwd = options.cwd;
    this.sandbox = options.sandbox ?? new SandboxControl({ ...DEFAULT_SANDBOX }, []);
    this.unobserveSandbox = this.sandbox.observe((state) => this.store.setSandbox(state));
    this.toolGate = new ToolCallGate(options.cwd);
    this.approvals = new ToolApprovals(this.store);
    const preferred = journal.thinkingLevel ?? options.settings?.thinkingLevel ?? "off";
    this.thinking = new SessionThinking(runtime, this.store, recorder, preferred, options.settingsWriter);
    this.models = new SessionModels(runtime, this.store, recorder, this.thinking, journal.model, warn);
    const compaction = { ...DEFAULT_COMPACTION, ...options.compaction };
    this.compactor = new SessionCompactor(runtime, this.store, recorder, journal, compaction, () => journal.sessionId, warn);
    this.loop = new AgentRunLoop({
      runtime,
      journal,
      store: this.store,
      recorder,
      streamer: new AssistantStreamer(runtime, this.store, recorder, () => journal.sessionId, warn),
      tools: new ToolRunner(this.store, recorder, new PiAiLoader(), options.cwd, options.toolGuard ?? this.toolGate.check, options.checkpoints, this.sandbox),
      compactor: this.compactor,
      retry: new RetryPolicy({ ...DEFAULT_RETRY, ...options.retry }),
      systemPrompt: options.systemPrompt,
      toolSet: () => this.tools,
      beforeModelCall: (signal) => this.beforeModelCall(signal),
      ensureModel: () => this.models.ensureRestored(),
    });
    for (const tool of options.tools ?? []) this.registerTool(tool);
  }

  get sessionId(): string {
    return this.journal.sessionId;
  }

  getState(): SessionState {
    const budget = this.budget.report();
    return budget ? { ...this.store.getState(), budget } : this.store.getState();
  }

  /** Replaces the run and session budgets (docs/headless.md); the next turn boundary of a run in progress honours them. */
  setBudget(limits: BudgetSettings): BudgetReport {
    this.assertOpen();
    return this.budget.set(limits);
  }

  subscribe(listener: SessionEventListener): () => void {
    return this.store.bus.subscribe(listener);
  }

  /**
   * Emits an event of the session's host (e.g. the extension host's `extension_error`) through the one
   * ordered event path, so it keeps its place among the session's own events and honours backpressure.
   * Such events change no state.
   */
  announce(event: AgentSessionEvent): Promise<void> {
    return this.store.emit(event);
  }

  /**
   * Puts another journal in place of the session's (session.new, fork, switch): idle only, checked
   * and swapped in one step so no prompt slips between. The connection's model and thinking level
   * stay, journaled in the new one where it records others; its queued input is discarded. Resolves
   * once `announce(state)` (the `session_switched` event) was handed to the listeners; returns the
   * journal it replaced, for the caller to close.
   */
  async replaceJournal(next: SessionJournalLike, announce: (state: SessionState) => AgentSessionEvent): Promise<SessionJournalLike> {
    this.assertIdle();
    const previous = this.journal.swap(next);
    this.usage.reset(next.entries());
    await this.store.journalReplaced(announce);
    // After the announcement, so that these entries' entry_appended events belong to the new session.
    const model = this.store.model?.descriptor;
    if (model && (next.model?.provider !== model.provider || next.model.modelId !== model.id)) {
      await this.recorder.append({ type: "model_change", provider: model.provider, modelId: model.id }).delivered;
    }
    if (next.thinkingLevel !== this.store.thinkingLevel) await this.recorder.append({ type: "thinking_level_change", thinkingLevel: this.store.thinkingLevel }).delivered;
    return previous;
  }

  /**
   * Moves the leaf to `entryId` with a `branch` entry (idle only): the next prompt branches there and
   * the model sees the path to it. `summary` (of the branch left) joins the model's context.
   */
  async moveLeaf(entryId: string, summary: string | undefined): Promise<JournalEntry> {
    this.assertIdle();
    const fromId = this.journal.leafId;
    const { entry, delivered } = this.recorder.append(summary === undefined ? { type: "branch", fromId } : { type: "branch", fromId, summary }, entryId);
    await delivered;
    await this.store.leafMoved({ type: "leaf_changed", leafId: entry.id, targetId: entryId, messageCount: this.journal.messageCount });
    return entry;
  }

  /** Journals (and announces) an entry of the session's own making: file checkpoints, rewind records. */
  record(input: JournalEntryInput): Promise<JournalEntry> {
    const { entry, delivered } = this.recorder.append(input);
    return delivered.then(() => entry);
  }

  /** Idle, nothing exclusive running, not disposed: what changing the session's journal needs. */
  assertIdle(): void {
    this.assertOpen();
    if (this.run || this.exclusive || !this.settled) throw refused(`session is ${this.store.activity.type}; wait until it is idle`);
  }

  /** Admission is synchronous: the input is started, joined or queued before this returns a promise. */
  async prompt(input: PromptInput): Promise<PromptResult> {
    this.assertOpen();
    const { delivery, text, completionId, images, outputSchema, traceparent } = input;
    if (typeof text !== "string") throw refused("text must be a string");
    if (text === "" && delivery !== "continue") throw refused("text must not be empty (only continue may be empty)");
    const queued: QueuedInput = completionId === undefined ? { text } : { text, completionId };
    if (images !== undefined && images.length > 0) {
      if (text === "") throw refused("images need text: a continue without text cannot carry images");
      const problem = this.imageRefusal();
      if (problem !== undefined) throw refused(problem);
      queued.images = images;
    }
    // Compiled before admission: a bad schema refuses the prompt; it applies to a prompt that starts a run.
    const output = outputSchema === undefined ? undefined : StructuredOutput.compile(outputSchema);
    const activity = this.store.activity.type;
    const joinable = this.run !== undefined && !this.run.abort.signal.aborted;
    const result = (admission: PromptResult["admission"], revision: number | undefined): PromptResult =>
      revision === undefined ? { delivery, admission } : { delivery, admission, completionRevision: revision };
    switch (delivery) {
      case "direct":
        if (joinable) throw refused("session is running; use steer, follow_up or continue");
        if (activity !== "idle" && activity !== "failed") throw refused(`session is ${activity}; wait until it is idle`);
        this.requireModel();
        this.requireBudget();
        return result("started", this.startRun([queued], completionId, output, traceparent));
      case "steer":
      case "follow_up":
        if (output) throw refused("outputSchema applies to a prompt that starts a run (direct, or continue while idle)");
        this.assertQueueable(queued);
        void this.store.enqueue(delivery === "steer" ? "steering" : "followUp", queued);
        return joinable ? result("joined", this.tracker.admit(completionId, true)) : result("queued", this.tracker.admit(completionId, false));
      case "continue":
        if (activity === "aborting" || activity === "compacting" || activity === "reloading" || activity === "failed") {
          throw refused(`session is ${activity}; continue is not possible now`);
        }
        if (joinable) {
          if (output) throw refused("outputSchema applies to a prompt that starts a run (direct, or continue while idle)");
          if (text !== "") {
            this.assertQueueable(queued);
            void this.store.enqueue("followUp", queued);
          }
          return result("joined", this.tracker.admit(completionId, true));
        }
        if (activity !== "idle") throw refused(`session is ${activity}; wait until it is idle`);
        this.requireModel();
        if (text === "" && !this.canContinue()) {
          throw refused("nothing to continue: no input is queued and the transcript is empty or ends with a finished reply; send text or queue input first");
        }
        this.requireBudget();
        return result("started", this.startRun(text === "" ? [] : [queued], completionId, output, traceparent));
      default:
        throw refused(`unknown delivery "${String(delivery)}"`);
    }
  }

  /**
   * Discards queued steering and follow-up input (announced by `queue_update`), aborts the active
   * run (model stream, running tool, retry wait) or exclusive operation and resolves once it has
   * settled. The queues go first, so nothing from the interrupted cycle starts on its own later;
   * the client has the texts and can resend them. From `failed` it returns the session to `idle`.
   * Pending permission requests are denied first (announced), so no waiting call runs afterwards;
   * `disconnect` also denies every later request at once.
   */
  async interrupt(reason: "interrupt" | "disconnect" = "interrupt"): Promise<void> {
    if (reason === "disconnect") this.approvals.close();
    else this.approvals.denyAll("interrupt");
    this.store.clearQueues();
    const exclusive = this.exclusive;
    if (exclusive) {
      exclusive.abort.abort();
      await exclusive.done.catch(() => undefined);
    }
    const run = this.run;
    if (run) {
      if (!run.abort.signal.aborted) {
        void this.store.setActivity({ type: "aborting" });
        run.abort.abort();
      }
      await run.done;
    } else if (this.store.activity.type === "failed") {
      await this.store.setActivity({ type: "idle" });
    }
  }

  awaitIdle(completionId: string | undefined, signal: AbortSignal): Promise<AwaitIdleResult> {
    return this.watchers.wait(completionId, signal, this.settled ? this.store.bus.whenDrained() : undefined);
  }

  /** Tokens, cost and calls of the session, its current (or last) run and its finished delegated tasks. */
  getUsage(): SessionUsage {
    const budget = this.budget.report();
    return budget ? { ...this.usage.snapshot(), budget } : this.usage.snapshot();
  }

  getMessages(start: number, limit: number): MessagePage {
    return this.journal.getMessagePage(start, limit, RPC_LIMITS.maxMessagePageBytes);
  }

  getOutcomes(start: number, limit: number): OutcomePage {
    return this.journal.getOutcomePage(start, limit);
  }

  /**
   * Why the selected model cannot take images, or undefined when it can. `session.prompt` asks first,
   * so a client is refused before admission with the field named (methods/session/prompt.method.ts).
   */
  imageRefusal(): string | undefined {
    const model = this.store.model?.descriptor;
    if (!model) return undefined;
    return model.input.includes("image") ? undefined : `the selected model ${model.provider}/${model.id} does not accept images (its input is ${model.input.join(", ")})`;
  }

  private assertQueueable(input: QueuedInput): void {
    const refusal = this.store.queueRefusal(input);
    if (refusal !== undefined) throw new RpcError("capacity", refusal);
  }

  /** Resolves the model a resumed session recorded (no-op otherwise); see SessionModels. */
  ensureModelRestored(): Promise<void> {
    return this.models.ensureRestored();
  }

  /**
   * Compacts the context now (idle only, `session.compact`): resolves with the compaction entry written;
   * `operation_failed` with the reason when none was (nothing to compact, the summary failed, interrupted).
   */
  async compact(instructions?: string): Promise<CompactResult> {
    this.requireModel();
    const outcome = await this.runExclusive("compacting", async (signal) => {
      await this.models.ensureRestored();
      return this.compactor.compact("manual", signal, instructions);
    });
    if ("summary" in outcome) return outcome;
    throw refused("aborted" in outcome ? "the compaction was interrupted" : `nothing was compacted: ${outcome.errorMessage}`);
  }

  /**
   * Runs an idle-only operation (an extension command, a reload) under `activity`; `interrupt`
   * aborts its signal. Prompts meanwhile: direct and continue are rejected, steer/follow_up queue.
   */
  async runExclusive<T>(activity: "running" | "reloading" | "compacting", operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.assertOpen();
    if (!this.settled || this.exclusive) throw refused(`session is ${this.store.activity.type}; wait until it is idle`);
    const abort = new AbortController();
    void this.store.setActivity({ type: activity });
    const done = Promise.resolve().then(() => operation(abort.signal));
    this.exclusive = { abort, done };
    try {
      return await done;
    } finally {
      this.exclusive = undefined;
      this.releaseIdleWaiters(this.closing ? undefined : this.store.setActivity({ type: "idle" }));
    }
  }

  /** Stops admitting, discards queued input, interrupts, and ends in `disposed`. Idempotent. */
  async dispose(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.unobserveSandbox();
    await this.interrupt("disconnect");
    this.releaseIdleWaiters(this.store.setActivity({ type: "disposed" }));
    await this.store.bus.whenDrained();
  }

  registerTool(tool: AgentTool): void {
    if (!tool || typeof tool.name !== "string" || tool.name === "" || typeof tool.execute !== "function") {
      throw refused("a tool needs a name and an execute function");
    }
    this.tools.set(tool.name, tool);
  }

  /** Withdraws a tool; a run in progress no longer offers it from its next model call. */
  removeTool(name: string): void {
    this.tools.delete(name);
  }

  /**
   * Adds work that runs before every model call (a plugin waiting, bounded, for tools still starting).
   * A hook that throws is logged and ignored: it never fails the run. Returns the removal function.
   */
  onBeforeModelCall(hook: (signal: AbortSignal) => Promise<void>): () => void {
    this.modelCallHooks.add(hook);
    return () => void this.modelCallHooks.delete(hook);
  }

  private async beforeModelCall(signal: AbortSignal): Promise<void> {
    for (const hook of this.modelCallHooks) {
      await hook(signal).catch((error: unknown) => warnOnStderr(`zi: a before-model-call hook failed: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  /** Replaces every tool; a run in progress sees the new set from its next model call. */
  setTools(tools: AgentTool[]): void {
    this.tools.clear();
    for (const tool of tools) this.registerTool(tool);
  }

  describeToolCall(toolName: string, args: Record<string, unknown>): DescribedToolCall {
    return describedToolCall(this.tools.get(toolName), toolName, args, this.cwd);
  }

  /** The tools offered to the model now, in registration order. */
  toolList(): AgentTool[] {
    return [...this.tools.values()];
  }

  /** An extension's gate before each tool call, after those registered earlier (see ToolCallGate). */
  addToolCallHook(owner: string, hook: ToolCallHook): void {
    this.toolGate.addHook(owner, hook);
  }

  /** Permission evidence (a decision, a policy change), journaled and announced like any entry. */
  appendPermissionEntry(data: Record<string, unknown>): JournalEntry {
    return this.records.appendPermissionEntry(data);
  }

  /** What the session's system prompt is built from (docs/context.md); null until it has been loaded. */
  getContext(): ContextSummary | null {
    return this.describeContext?.() ?? null;
  }

  appendSubagentEntry(data: Record<string, unknown>): JournalEntry {
    return this.records.appendSubagentEntry(data);
  }

  appendCustomEntry(customType: string, data?: unknown): JournalEntry {
    return this.records.appendCustomEntry(customType, data);
  }

  sendCustomMessage(input: CustomMessageInput): JournalEntry {
    return this.records.sendCustomMessage(input);
  }

  recordOutcome(input: OutcomeInput): OperationOutcome {
    return this.records.recordOutcome(input);
  }

  replaceWorkPlan(steps: WorkPlanStep[]): WorkPlan {
    return this.records.replaceWorkPlan(steps);
  }

  private get settled(): boolean {
    const type = this.store.activity.type;
    return type === "idle" || type === "failed" || type === "disposed";
  }

  private startRun(inputs: QueuedInput[], completionId: string | undefined, output?: StructuredOutput, traceparent?: string): number | undefined {
    const revision = this.tracker.admit(completionId, true);
    this.usage.startRun();
    this.budget.startRun();
    const run: ActiveWork = { abort: new AbortController(), done: Promise.resolve(), startedAt: Date.now() };
    this.run = run;
    const timeLeft = this.budget.msUntilTimeLimit();
    if (timeLeft !== undefined) {
      run.timer = setTimeout(() => {
        run.timeUp = true;
        void this.store.setActivity({ type: "aborting" });
        run.abort.abort();
      }, timeLeft);
    }
    void this.store.setActivity({ type: "running" });
    let announced: Promise<void> = Promise.resolve();
    const finished = this.loop.run(inputs, run.abort.signal, (end) => (announced = this.settle(run, end)), this.guard(output, traceparent));
    // Interrupt resolves only once the client has been handed agent_end and the new activity.
    run.done = finished.then(() => announced);
    return revision;
  }

  /** The run's budgets and structured-output check, asked by the loop at each turn boundary. */
  private guard(output: StructuredOutput | undefined, traceparent: string | undefined): RunGuard {
    return {
      ...(traceparent !== undefined && { traceparent }),
      limit: () => {
        const budget = this.budget.exceeded();
        return budget && { reason: "budget_exceeded", budget };
      },
      complete: (reply) => {
        if (!output) return { reason: "completed" };
        const verdict = output.judge(reply);
        if (verdict.ok) return { reason: "completed", structured: verdict.value };
        const repair = output.repair(verdict.problem);
        if (repair !== undefined) return { text: repair };
        const errorMessage = `the final answer does not match outputSchema after ${StructuredOutput.MAX_REPAIRS} repair turns: ${verdict.problem}`;
        return { reason: "structured_output_invalid", errorMessage: clipUtf8(errorMessage, RPC_LIMITS.maxCompletionErrorBytes).text };
      },
    };
  }

  /** Called synchronously by the run loop at the moment it decides to end. */
  private settle(run: ActiveWork, end: RunEnd): Promise<void> {
    clearTimeout(run.timer);
    if (run.timeUp && end.reason === "interrupted") {
      const budget = this.budget.timeHit();
      if (budget) end = { reason: "budget_exceeded", budget };
    }
    this.budget.endRun(end.budget);
    this.usage.endRun();
    this.recordRunOutcome(run, end);
    this.tracker.conclude(end);
    const event: SessionEventOf<"agent_end"> = { type: "agent_end", reason: end.reason };
    if (end.errorMessage !== undefined) event.errorMessage = end.errorMessage;
    if (end.budget !== undefined) event.budget = end.budget;
    if (end.structured !== undefined) event.structured = end.structured;
    void this.store.emit(event);
    if (this.run === run) this.run = undefined;
    const announced =
      end.reason === "failed"
        ? this.store.setActivity({ type: "failed", errorMessage: clipUtf8(end.errorMessage ?? "the run failed", RPC_LIMITS.maxCompletionErrorBytes).text })
        : this.store.setActivity({ type: "idle" });
    this.releaseIdleWaiters(announced);
    return announced;
  }

  /** A run a budget or an outputSchema ended is journaled as an outcome (evidence: which budget, or the schema's verdict). */
  private recordRunOutcome(run: ActiveWork, end: RunEnd): void {
    if (end.budget === undefined && end.reason !== "structured_output_invalid" && end.structured === undefined) return;
    const evidence: Record<string, unknown> = end.budget ? { budget: end.budget } : { outputSchema: end.structured === undefined ? "invalid" : "valid" };
    if (end.errorMessage !== undefined) evidence.errorMessage = clipUtf8(end.errorMessage, 4096).text;
    this.records.recordOutcome({
      operationId: `run-${this.tracker.currentRevision}`,
      capability: "session",
      operation: "run",
      result: end.reason,
      durationMs: Date.now() - (run.startedAt ?? Date.now()),
      evidence,
    });
  }

  private requireBudget(): void {
    const refusal = this.budget.refusal();
    if (refusal !== undefined) throw refused(refusal);
  }

  private releaseIdleWaiters(announced: Promise<void> = Promise.resolve()): void {
    if (this.settled) this.watchers.release(announced);
  }

  private canContinue(): boolean {
    if (this.store.queues.size > 0) return true;
    const last = contextMessages(this.journal).at(-1);
    return last !== undefined && last.role !== "assistant";
  }

  private requireModel(): void {
    if (!this.store.model && !this.models.restorePending) throw refused("no model selected; call model.select first");
  }

  private assertOpen(): void {
    if (this.closing) throw refused("session is disposed");
  }
}
