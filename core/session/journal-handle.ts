import type * as PiAi from "@mariozechner/pi-ai";
import type { JournalEntry, JournalEntryInput } from "../journal/journal-types.js";
import type { JournalModel, OutcomeEntry } from "../journal/journal-view-types.js";
import type { MessagePage, OperationOutcome, OutcomePage, ThinkingLevel, WorkPlan } from "../wire/session-types.js";
import type { SessionJournalLike } from "./agent-session-options.js";

/**
 * The session's journal as its parts see it: one object that every part holds, whose journal
 * `session.new`, `session.fork` and `session.switch` replace (idle only), so no part keeps a stale one.
 */
export class JournalHandle implements SessionJournalLike {
  constructor(private current: SessionJournalLike) {}

  /** Puts `next` in place and returns the journal it replaced. */
  swap(next: SessionJournalLike): SessionJournalLike {
    const previous = this.current;
    this.current = next;
    return previous;
  }

  get journal(): SessionJournalLike {
    return this.current;
  }

  get sessionId(): string {
    return this.current.sessionId;
  }

  get messageCount(): number {
    return this.current.messageCount;
  }

  get workPlan(): WorkPlan {
    return this.current.workPlan;
  }

  get model(): JournalModel | null {
    return this.current.model;
  }

  get thinkingLevel(): ThinkingLevel | null {
    return this.current.thinkingLevel;
  }

  get leafId(): string {
    return this.current.leafId;
  }

  append(input: JournalEntryInput, branchFrom?: string): JournalEntry {
    return this.current.append(input, branchFrom);
  }

  entries(): IterableIterator<JournalEntry> {
    return this.current.entries();
  }

  pathEntries(): JournalEntry[] {
    return this.current.pathEntries();
  }

  getMessagePage(start: number, limit: number, maxBytes: number): MessagePage {
    return this.current.getMessagePage(start, limit, maxBytes);
  }

  getOutcomePage(start: number, limit: number): OutcomePage {
    return this.current.getOutcomePage(start, limit);
  }

  buildContextMessages(): PiAi.Message[] {
    return this.current.buildContextMessages();
  }

  toOutcome(entry: OutcomeEntry): OperationOutcome {
    return this.current.toOutcome(entry);
  }
}
