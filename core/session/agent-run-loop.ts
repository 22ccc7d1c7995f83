import { RpcError } from "../kernel/rpc-error.js";
import type * as PiAi from "@mariozechner/pi-ai";
import type { ModelRuntime } from "../models/model-runtime.js";
import type { AgentTool } from "./agent-tool.js";
import type { SessionJournalLike, SystemPromptSource } from "./agent-session-options.js";
import type { AssistantStreamer } from "./assistant-streamer.js";
import { contextMessages } from "./model-context.js";
import type { RetryPolicy } from "./retry-policy.js";
import type { SessionCompactor } from "./session-compactor.js";
import type { JournalAppender } from "./journal-appender.js";
import type { SessionStateStore } from "./session-state-store.js";
import type { QueuedInput } from "../wire/session-types.js";
import type { ToolRunner } from "./tool-runner.js";
import type { BudgetHit } from "../wire/budget-types.js";

export interface RunEnd {
  reason: "completed" | "interrupted" | "failed" | "budget_exceeded" | "structured_output_invalid";
  errorMessage?: string;
  /** `budget_exceeded`: which budget. */
  budget?: BudgetHit;
  /** `completed` under an outputSchema: the parsed, valid answer. */
  structured?: unknown;
}

/** A run's limits (docs/headless.md): asked where the run would go on, and where it would complete. */
export interface RunGuard {
  /** A budget reached ends the run here, between turns, so nothing is half-written. */
  limit(): RunEnd | undefined;
  /** Judges the final reply: the end of the run, or one more input (a structured-output repair turn). */
  complete(reply: PiAi.AssistantMessage | undefined): RunEnd | QueuedInput;
  /** The W3C trace context the prompt carried, announced on `agent_start` for the telemetry plugin. */
  traceparent?: string;
}

export interface RunLoopParts {
  runtime: ModelRuntime;
  journal: SessionJournalLike;
  store: SessionStateStore;
  recorder: JournalAppender;
  streamer: AssistantStreamer;
  tools: ToolRunner;
  compactor: SessionCompactor;
  retry: RetryPolicy;
  systemPrompt: string | SystemPromptSource | undefined;
  toolSet(): ReadonlyMap<string, AgentTool>;
  /** Runs before each model call (plugins' bounded waits for tools still starting). */
  beforeModelCall?(signal: AbortSignal): Promise<void>;
  /** Resolves a model restored from the journal, if one is still pending. */
  ensureModel(): Promise<void>;
}

interface TurnResult {
  end?: RunEnd;
  hadToolCalls: boolean;
  reply?: PiAi.AssistantMessage;
}

/**
 * One agent run: turns of (deliver inputs, call the model, run its tool calls) until the model
 * stops and no input is waiting. Steering is delivered after each turn (so after the turn's tool
 * calls), follow-up only when the agent would otherwise stop. The run ends by calling `finish`
 * synchronously with the same check that found nothing left to do, so no input can be admitted
 * as "joined" into a run that has already decided to end.
 */
export class AgentRunLoop {
  /** This run's system prompt: computed once when it starts, the same for each of its model calls. */
  private systemPrompt: string | undefined;

  constructor(private readonly parts: RunLoopParts) {}

  async run(initial: QueuedInput[], signal: AbortSignal, finish: (end: RunEnd) => void, guard?: RunGuard): Promise<void> {
    const { store } = this.parts;
    let thresholdFailed = false;
    try {
      await store.emit(guard?.traceparent === undefined ? { type: "agent_start" } : { type: "agent_start", traceparent: guard.traceparent });
      await this.parts.ensureModel();
      this.systemPrompt = await this.resolveSystemPrompt();
      let pending = [...initial, ...store.take("steering")];
      if (pending.length === 0 && this.lastRole() === "assistant") pending = store.take("followUp");
      for (;;) {
        const turn = await this.turn(pending, signal);
        if (turn.end) return finish(turn.end);
        if (!thresholdFailed && !signal.aborted && this.parts.compactor.thresholdReached) {
          thresholdFailed = !("summary" in (await this.parts.compactor.compact("threshold", signal)));
        }
        if (signal.aborted) return finish({ reason: "interrupted" });
        pending = store.take("steering");
        if (pending.length === 0 && !turn.hadToolCalls) pending = store.take("followUp");
        if (pending.length === 0 && !turn.hadToolCalls) {
          const verdict = guard ? guard.complete(turn.reply) : { reason: "completed" as const };
          if ("reason" in verdict) return finish(verdict);
          pending = [verdict];
        }
        const limited = guard?.limit();
        if (limited) return finish(limited);
      }
    } catch (error) {
      process.stderr.write(`zi: agent run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      if (signal.aborted) return finish({ reason: "interrupted" });
      // A failure Zi describes for the client (a journal that cannot be written) says what it is.
      return finish({ reason: "failed", errorMessage: error instanceof RpcError ? error.message : "internal error during the run (see stderr)" });
    }
  }

  private async turn(inputs: QueuedInput[], signal: AbortSignal): Promise<TurnResult> {
    const { store, recorder } = this.parts;
    await store.emit({ type: "turn_start" });
    for (const input of inputs) {
      const images = (input.images ?? []).map(({ data, mimeType }): PiAi.ImageContent => ({ type: "image", data, mimeType }));
      await recorder.recordMessage({ role: "user", content: [{ type: "text", text: input.text }, ...images], timestamp: Date.now() });
    }
    if (signal.aborted) return this.endTurn({ reason: "interrupted" });
    if (!store.model) return this.endTurn({ reason: "failed", errorMessage: "no model selected; call model.select first" });
    const reply = await this.callModel(signal);
    if (signal.aborted || reply.stopReason === "aborted") return this.endTurn({ reason: "interrupted" }, reply);
    if (reply.stopReason === "error") {
      return this.endTurn({ reason: "failed", errorMessage: reply.errorMessage ?? "the model call failed" }, reply);
    }
    const calls = reply.content.filter((block): block is PiAi.ToolCall => block.type === "toolCall");
    const toolResults = calls.length > 0 ? await this.parts.tools.run(calls, this.parts.toolSet(), signal) : [];
    await store.emit({ type: "turn_end", message: reply, toolResults });
    return { hadToolCalls: calls.length > 0, reply };
  }

  private async endTurn(end: RunEnd, reply?: PiAi.AssistantMessage): Promise<TurnResult> {
    await this.parts.store.emit({ type: "turn_end", message: reply ?? null, toolResults: [] });
    return { end, hadToolCalls: false };
  }

  /**
   * Calls the model, retrying transient errors with backoff and compacting once on a context
   * overflow. Failed attempts stay in the transcript (they were streamed and journaled) but never
   * reach a later model call: the context skips assistant messages that ended in error.
   */
  private async callModel(signal: AbortSignal): Promise<PiAi.AssistantMessage> {
    const { store, retry, runtime, compactor } = this.parts;
    let attempt = 0;
    let overflowCompacted = false;
    await this.parts.beforeModelCall?.(signal);
    for (;;) {
      const model = store.model!;
      const reply = await this.parts.streamer.stream(model, this.context(), signal);
      if (reply.stopReason !== "error" || signal.aborted) {
        if (attempt > 0) {
          const success = reply.stopReason !== "error" && reply.stopReason !== "aborted";
          await store.endRetry(success ? { success, attempt } : { success, attempt, finalError: reply.errorMessage ?? "interrupted" });
        }
        return reply;
      }
      const errorMessage = reply.errorMessage ?? "the model call failed";
      const kind = runtime.classifyError(reply, model);
      if (kind === "retryable" && attempt < retry.maxAttempts) {
        attempt++;
        const delayMs = retry.delayFor(attempt);
        await store.startRetry({ attempt, maxAttempts: retry.maxAttempts, delayMs, errorMessage });
        if (!(await retry.wait(delayMs, signal))) {
          await store.endRetry({ success: false, attempt, finalError: "the retry was interrupted" });
          return reply;
        }
        continue;
      }
      if (kind === "context_overflow" && !overflowCompacted && compactor.settings.enabled) {
        overflowCompacted = true;
        if ("summary" in (await compactor.compact("overflow", signal))) continue;
      }
      if (attempt > 0) await store.endRetry({ success: false, attempt, finalError: errorMessage });
      return reply;
    }
  }

  private context(): PiAi.Context {
    const tools = [...this.parts.toolSet().values()].map(
      (tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }) as unknown as PiAi.Tool,
    );
    const context: PiAi.Context = { messages: contextMessages(this.parts.journal) };
    if (this.systemPrompt) context.systemPrompt = this.systemPrompt;
    if (tools.length > 0) context.tools = tools;
    return context;
  }

  private async resolveSystemPrompt(): Promise<string | undefined> {
    const source = this.parts.systemPrompt;
    return typeof source === "function" ? source([...this.parts.toolSet().values()]) : source;
  }

  private lastRole(): PiAi.Message["role"] | undefined {
    return contextMessages(this.parts.journal).at(-1)?.role;
  }
}
