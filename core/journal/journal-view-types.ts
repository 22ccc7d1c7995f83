import type { JournalEntry } from "./journal-types.js";

export type SessionHeaderEntry = Extract<JournalEntry, { type: "session" }>;
export type MessageEntry = Extract<JournalEntry, { type: "message" }>;
export type CustomMessageEntry = Extract<JournalEntry, { type: "custom_message" }>;
export type OutcomeEntry = Extract<JournalEntry, { type: "operation_outcome" }>;
export type CompactionEntry = Extract<JournalEntry, { type: "compaction" }>;

/**
 * How a displayed `custom_message` entry appears in `session.get_messages` pages, beside pi-ai
 * messages. `timestamp` is epoch milliseconds like every pi-ai message's; `entryId` links the item
 * to the `entry_appended` event that announced it. `details` is present only when the entry has it.
 */
export interface CustomMessageItem {
  role: "custom";
  customType: string;
  content: string;
  details?: unknown;
  display: true;
  entryId: string;
  timestamp: number;
}

/** The latest `model_change` entry, as written. */
export interface JournalModel {
  provider: string;
  modelId: string;
}

export interface SessionJournalOptions {
  /**
   * fdatasync after every append (default true), so an entry announced to a client survives a
   * machine crash, not only a process crash. Benchmarks that build large files may turn it off.
   */
  fsync?: boolean;
  /**
   * Scrubs a JSON line before it is written and indexed (known credential values become
   * `[redacted]`; must not lengthen the line or break its JSON). Default: none.
   */
  redact?: (jsonLine: string) => string;
}
