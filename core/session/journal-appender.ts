import type * as PiAi from "@mariozechner/pi-ai";
import type { JournalEntry, JournalEntryInput } from "../journal/journal-types.js";
import type { SessionJournalLike } from "./agent-session-options.js";
import type { CompletionTracker } from "./completion-tracker.js";
import type { SessionStateStore } from "./session-state-store.js";
import type { UsageLedger } from "./usage-ledger.js";

export interface Appended {
  entry: JournalEntry;
  /** Resolves once `entry_appended` was accepted by the listeners (await it to honour backpressure). */
  delivered: Promise<void>;
}

/**
 * The only writer of the journal. Each append is followed at once by its `entry_appended` event,
 * and a message is on disk before the `message_end` that announces it.
 */
export class JournalAppender {
  constructor(
    private readonly journal: SessionJournalLike,
    private readonly store: SessionStateStore,
    private readonly tracker: CompletionTracker,
    private readonly ledger?: Pick<UsageLedger, "observe">,
  ) {}

  append(input: JournalEntryInput, branchFrom?: string): Appended {
    const entry = this.journal.append(input, branchFrom);
    this.ledger?.observe(entry);
    return { entry, delivered: this.store.entryAppended(entry) };
  }

  /** A user or tool-result message: message_start, append, entry_appended, message_end. */
  async recordMessage(message: PiAi.Message): Promise<void> {
    await this.store.emit({ type: "message_start", message });
    await this.finishMessage(message);
  }

  /** Completes a message whose message_start (and updates) were already emitted. */
  async finishMessage(message: PiAi.Message): Promise<void> {
    const { delivered } = this.append({ type: "message", message });
    if (message.role === "assistant") this.tracker.capture(message);
    await delivered;
    await this.store.emit({ type: "message_end", message });
  }
}
