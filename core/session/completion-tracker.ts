import type * as PiAi from "@mariozechner/pi-ai";
import type { AwaitIdleResult, CompletionEvidence } from "../wire/session-types.js";
import { clipUtf8 } from "../wire/utf8-clip.js";
import { RPC_LIMITS } from "../wire/limits.js";

/**
 * Completion watches (docs/protocol.md, "completionId").
 *
 * One session-wide revision counter advances on every admission that starts or joins work; an
 * admission that only queues (steer/follow_up while idle) reports the current, settled value.
 * At most one watch is live: the completionId of the newest admission that started or joined
 * work. A different ID, or no ID, replaces it and forgets the captured reply, so output produced
 * for other input is never attributed to an older watch. While a watch is live, every assistant
 * `message_end` replaces its evidence.
 */
export class CompletionTracker {
  private revision = 0;
  private watchId: string | undefined;
  private evidence: PiAi.AssistantMessage | null = null;
  private conclusion: Pick<CompletionEvidence, "reason" | "budget" | "structured"> | undefined;

  get currentRevision(): number {
    return this.revision;
  }

  /** Records an admission; returns the revision to report when the prompt carried an ID. */
  admit(completionId: string | undefined, startsOrJoinsWork: boolean): number | undefined {
    if (startsOrJoinsWork) {
      this.revision++;
      if (completionId !== this.watchId) {
        this.watchId = completionId;
        this.evidence = null;
        this.conclusion = undefined;
      }
    }
    return completionId === undefined ? undefined : this.revision;
  }

  /** Called for every assistant message_end. */
  capture(message: PiAi.AssistantMessage): void {
    if (this.watchId !== undefined) this.evidence = message;
  }

  /** Called when a run ends: the watch's evidence says how (and, under a budget or a schema, what decided it). */
  conclude(end: { reason: string; budget?: CompletionEvidence["budget"]; structured?: unknown }): void {
    // Ends that predate budgets and schemas keep their evidence as it was (stopReason tells them apart).
    const decided = end.budget !== undefined || end.structured !== undefined || end.reason === "structured_output_invalid";
    if (this.watchId === undefined || !decided) return;
    this.conclusion = { reason: end.reason };
    if (end.budget !== undefined) this.conclusion.budget = end.budget;
    if (end.structured !== undefined) this.conclusion.structured = end.structured;
  }

  /** The idle-watch result at this moment (call it when the session is settled). */
  observe(completionId: string | undefined, messageCount: number): AwaitIdleResult {
    if (completionId === undefined) return {};
    const evidence = completionId === this.watchId ? this.evidence : null;
    return {
      completionId,
      completionRevision: this.revision,
      messageCount,
      completion: evidence ? { ...CompletionTracker.project(evidence), ...this.conclusion } : null,
    };
  }

  static project(message: PiAi.AssistantMessage): CompletionEvidence {
    const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    const clipped = clipUtf8(text, RPC_LIMITS.maxCompletionTextBytes);
    const evidence: CompletionEvidence = { text: clipped.text, textTruncated: clipped.truncated, stopReason: message.stopReason };
    if (message.errorMessage !== undefined) {
      const error = clipUtf8(message.errorMessage, RPC_LIMITS.maxCompletionErrorBytes);
      evidence.errorMessage = error.text;
      evidence.errorTruncated = error.truncated;
    }
    return evidence;
  }
}
