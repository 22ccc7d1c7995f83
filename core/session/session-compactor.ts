import { clipUtf8 } from "../wire/utf8-clip.js";
import type * as PiAi from "@mariozechner/pi-ai";
import type { ModelRuntime, ResolvedModel } from "../models/model-runtime.js";
import type { CompactionSettings, SessionJournalLike } from "./agent-session-options.js";
import { CompactionPlanner } from "./compaction-planner.js";
import type { CompactionPlan } from "./compaction-planner.js";
import type { JournalAppender } from "./journal-appender.js";
import type { SessionStateStore } from "./session-state-store.js";
import type { CompactionState } from "../wire/session-types.js";

export type CompactionReason = Extract<CompactionState, { type: "compacting" }>["reason"];

/** `usage`: what the summary's model call cost, journaled with the entry (session.get_usage counts it). */
type Summary = { summary: string; usage?: PiAi.Usage } | { aborted: true } | { errorMessage: string };

/** How one compaction ended: the entry written (as `session.compact` answers it), or why none was. */
export type CompactionOutcome = { summary: string; firstKeptEntryId: string; tokensBefore: number } | { aborted: true } | { errorMessage: string };

const SYSTEM_PROMPT =
  "You summarise coding-agent conversations so that the work can continue from the summary alone. " +
  "Do not continue the conversation and do not answer questions in it; only summarise.";

const INSTRUCTIONS = [
  "Write a concise summary of the conversation above for the agent that continues it. Keep:",
  "- the user's goals, requests and constraints;",
  "- decisions taken and their reasons;",
  "- files, commands, tools and results that matter, with exact names and paths;",
  "- what is done, what is in progress and the next steps.",
  "If a previous summary is given, merge it into the new one.",
].join("\n");

/**
 * Replaces older context with a model-written summary: a `compaction` journal entry whose summary
 * stands in for everything before `firstKeptEntryId` in later model calls. The transcript pages
 * keep every message; only the model's context shrinks.
 */
export class SessionCompactor {
  private readonly planner: CompactionPlanner;

  constructor(
    private readonly runtime: ModelRuntime,
    private readonly store: SessionStateStore,
    private readonly recorder: JournalAppender,
    journal: SessionJournalLike,
    readonly settings: CompactionSettings,
    private readonly sessionId: () => string,
    private readonly warn: (message: string) => void,
  ) {
    this.planner = new CompactionPlanner(journal);
  }

  /** True when the last reply's context usage leaves less than `reserveTokens` of the window. */
  get thresholdReached(): boolean {
    const model = this.store.model;
    const tokens = this.store.contextTokens;
    if (!this.settings.enabled || !model || tokens === undefined) return false;
    return tokens > model.descriptor.contextWindow - this.settings.reserveTokens;
  }

  /**
   * Runs one compaction; `summary` in the outcome when a compaction entry was written. `instructions`
   * (session.compact's) are added to the summariser's own, as pi's custom instructions are.
   */
  async compact(reason: CompactionReason, signal: AbortSignal, instructions?: string): Promise<CompactionOutcome> {
    const model = this.store.model;
    if (!model) return { errorMessage: "no model is selected" };
    if (signal.aborted) return { aborted: true };
    const inRun = this.store.activity.type === "running";
    if (inRun) await this.store.setActivity({ type: "compacting" });
    await this.store.startCompaction(reason);
    let outcome: Summary;
    const plan = this.planner.plan(this.settings.keepRecentTokens);
    if (!plan) outcome = { errorMessage: "nothing to compact: the context holds only recent messages" };
    else outcome = await this.summarise(model, plan, signal, instructions);
    let written: CompactionOutcome = "summary" in outcome ? { errorMessage: "nothing to compact" } : outcome;
    if ("summary" in outcome && plan) {
      const tokensBefore = this.store.contextTokens ?? plan.estimatedTokens;
      const { delivered } = this.recorder.append({
        type: "compaction",
        summary: outcome.summary,
        firstKeptEntryId: plan.firstKeptEntryId,
        tokensBefore,
        ...(outcome.usage ? { usage: outcome.usage } : {}),
      });
      await delivered;
      written = { summary: outcome.summary, firstKeptEntryId: plan.firstKeptEntryId, tokensBefore };
    }
    await this.store.endCompaction("summary" in outcome ? { reason, summary: outcome.summary } : { reason, ...outcome });
    // An interrupt may have turned the activity into `aborting` meanwhile: leave that alone.
    if (inRun && this.store.activity.type === "compacting") await this.store.setActivity({ type: "running" });
    return written;
  }

  private async summarise(model: ResolvedModel, plan: CompactionPlan, signal: AbortSignal, instructions: string | undefined): Promise<Summary> {
    const previous = plan.previousSummary ? `<previous-summary>\n${plan.previousSummary}\n</previous-summary>\n\n` : "";
    const extra = instructions ? `\n\nAdditional instructions from the user for this summary:\n${instructions}` : "";
    const text = `${previous}<conversation>\n${plan.transcript}\n</conversation>\n\n${INSTRUCTIONS}${extra}`;
    const context: PiAi.Context = {
      systemPrompt: SYSTEM_PROMPT,
      messages: [{ role: "user", content: [{ type: "text", text }], timestamp: Date.now() }],
    };
    let reply: PiAi.AssistantMessage;
    try {
      const events = await this.runtime.stream(model, context, { signal, thinkingLevel: "off", sessionId: this.sessionId() });
      reply = await events.result();
    } catch (error) {
      if (signal.aborted) return { aborted: true };
      this.warn(`compaction summary failed: ${error instanceof Error ? error.message : String(error)}`);
      return { errorMessage: "the summary could not be generated" };
    }
    if (reply.stopReason === "aborted" || signal.aborted) return { aborted: true };
    if (reply.stopReason === "error") return { errorMessage: reply.errorMessage ?? "the summary could not be generated" };
    const written = reply.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("").trim();
    if (!written) return { errorMessage: "the model returned an empty summary" };
    // A summary as long as what it replaces would leave the context over the threshold, and every
    // later turn would compact again: it may use at most half of the reserve (about 4 bytes a token).
    const clipped = clipUtf8(written, Math.max(1024, this.settings.reserveTokens * 2));
    return { summary: clipped.truncated ? `${clipped.text}\n[summary truncated]` : clipped.text, usage: reply.usage };
  }
}
