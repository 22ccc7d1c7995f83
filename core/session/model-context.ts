import type * as PiAi from "@mariozechner/pi-ai";
import type { SessionJournalLike } from "./agent-session-options.js";

/** A reply that failed or was aborted stays in the transcript but is never replayed to a model. */
export function isReplayable(message: PiAi.Message): boolean {
  return message.role !== "assistant" || (message.stopReason !== "error" && message.stopReason !== "aborted");
}

/** The messages the next model call sees: the journal's context (compaction applied), replayable only. */
export function contextMessages(journal: SessionJournalLike): PiAi.Message[] {
  return journal.buildContextMessages().filter(isReplayable);
}
