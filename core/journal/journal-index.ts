import { standIn } from "../kernel/json-clip.js";
import { RPC_LIMITS } from "../wire/limits.js";
import type * as PiAi from "@mariozechner/pi-ai";
import type { MessagePage, OperationOutcome, OutcomePage, ThinkingLevel, WorkPlan } from "../wire/session-types.js";
import type { JournalEntry } from "./journal-types.js";
import type {
  CompactionEntry,
  CustomMessageEntry,
  CustomMessageItem,
  JournalModel,
  MessageEntry,
  OutcomeEntry,
} from "./journal-view-types.js";

type ShownEntry = MessageEntry | CustomMessageEntry;

const SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
const SUMMARY_SUFFIX = "\n</summary>";
const NOT_MEASURED = -1;

const epochMs = (iso: string): number => {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : 0;
};

/**
 * The in-memory views of one journal, updated entry by entry in journal order (on load and on
 * append), so every query costs O(its answer), never O(session length).
 */
export class JournalIndex {
  private readonly all: JournalEntry[] = [];
  private readonly seqById = new Map<string, number>();
  /** The transcript of `session.get_messages`: messages and displayed custom messages. */
  private readonly shown: ShownEntry[] = [];
  /** Encoded byte length of each shown item, measured when a page first touches it. */
  private readonly shownBytes: number[] = [];
  private readonly outcomes: OutcomeEntry[] = [];
  /** Everything the model may see (messages and all custom messages) with its journal position. */
  private readonly contextEntries: ShownEntry[] = [];
  private readonly contextSeqs: number[] = [];
  private compaction: { entry: CompactionEntry; seq: number } | null = null;
  private plan: WorkPlan = { revision: 0, steps: [] };
  private model: JournalModel | null = null;
  private thinking: ThinkingLevel | null = null;

  add(entry: JournalEntry): void {
    const seq = this.all.length;
    this.all.push(entry);
    this.seqById.set(entry.id, seq);
    switch (entry.type) {
      case "message":
        this.show(entry);
        this.addContext(entry, seq);
        break;
      case "custom_message":
        if (entry.display) this.show(entry);
        this.addContext(entry, seq);
        break;
      case "operation_outcome":
        this.outcomes.push(entry);
        break;
      case "work_plan":
        this.plan = entry.workPlan;
        break;
      case "model_change":
        this.model = { provider: entry.provider, modelId: entry.modelId };
        break;
      case "thinking_level_change":
        this.thinking = entry.thinkingLevel;
        break;
      case "compaction":
        this.compaction = { entry, seq };
        break;
    }
  }

  has(id: string): boolean {
    return this.seqById.has(id);
  }

  get(id: string): JournalEntry | undefined {
    const seq = this.seqById.get(id);
    return seq === undefined ? undefined : this.all[seq];
  }

  get first(): JournalEntry | undefined {
    return this.all[0];
  }

  get lastEntryId(): string | null {
    return this.all.at(-1)?.id ?? null;
  }

  get entryCount(): number {
    return this.all.length;
  }

  get messageCount(): number {
    return this.shown.length;
  }

  get outcomeCount(): number {
    return this.outcomes.length;
  }

  get workPlan(): WorkPlan {
    return this.plan;
  }

  get latestModel(): JournalModel | null {
    return this.model;
  }

  get thinkingLevel(): ThinkingLevel | null {
    return this.thinking;
  }

  entries(): IterableIterator<JournalEntry> {
    return this.all.values();
  }

  /**
   * Items from `start`, at most `limit`, stopping before the item that would take the JSON of the
   * `messages` array past `maxBytes`; the first item always comes, however large.
   */
  getMessagePage(start: number, limit: number, maxBytes: number): MessagePage {
    const total = this.shown.length;
    const messages: MessagePage["messages"] = [];
    const end = Math.min(total, start + limit);
    let bytes = 2; // the array's brackets
    for (let index = start; index < end; index++) {
      let item = JournalIndex.toPageItem(index, this.shown[index]!);
      let size = this.shownBytes[index]!;
      if (size === NOT_MEASURED) {
        size = Buffer.byteLength(JSON.stringify(item));
        this.shownBytes[index] = size;
      }
      if (size > maxBytes) {
        // An item no page could hold is served as a stand-in, alone on its page, so paging never sticks.
        if (messages.length > 0) break;
        item = standIn(item, size, Math.min(maxBytes, RPC_LIMITS.maxStandInBytes)) as typeof item;
        size = Buffer.byteLength(JSON.stringify(item));
      }
      const added = messages.length > 0 ? size + 1 : size; // a comma separates items
      if (messages.length > 0 && bytes + added > maxBytes) break;
      bytes += added;
      messages.push(item);
    }
    const next = start + messages.length;
    return { start, total, nextStart: next < total ? next : null, messages };
  }

  getOutcomePage(start: number, limit: number): OutcomePage {
    const total = this.outcomes.length;
    const end = Math.min(total, start + limit);
    const outcomes: OutcomePage["outcomes"] = [];
    for (let index = start; index < end; index++) {
      outcomes.push({ index, ...JournalIndex.toOutcome(this.outcomes[index]!) });
    }
    return { start, total, nextStart: end < total ? end : null, outcomes };
  }

  /**
   * The messages the model sees. After a compaction: a user message holding the summary, then the
   * context entries from `firstKeptEntryId` on (if that id is unknown, from the compaction entry on).
   * Custom messages, displayed or hidden, become user messages so extensions can inject context.
   * The returned message objects are the journal's own: callers must not mutate them.
   */
  buildContextMessages(): PiAi.Message[] {
    const compaction = this.compaction;
    if (!compaction) return this.contextEntries.map(JournalIndex.toContextMessage);
    const keptSeq = this.seqById.get(compaction.entry.firstKeptEntryId) ?? compaction.seq;
    const messages: PiAi.Message[] = [
      {
        role: "user",
        content: [{ type: "text", text: SUMMARY_PREFIX + compaction.entry.summary + SUMMARY_SUFFIX }],
        timestamp: epochMs(compaction.entry.timestamp),
      },
    ];
    for (let i = this.firstContextAtOrAfter(keptSeq); i < this.contextEntries.length; i++) {
      messages.push(JournalIndex.toContextMessage(this.contextEntries[i]!));
    }
    return messages;
  }

  /** The outcome envelope shared by `operation_outcome` events and `session.get_outcomes` items. */
  static toOutcome(entry: OutcomeEntry): OperationOutcome {
    const outcome: OperationOutcome = {
      id: entry.id,
      parentId: entry.parentId,
      timestamp: entry.timestamp,
      operationId: entry.operationId,
      capability: entry.capability,
      operation: entry.operation,
      result: entry.result,
      durationMs: entry.durationMs,
    };
    if (entry.evidence !== undefined) outcome.evidence = entry.evidence;
    return outcome;
  }

  /** A transcript item without its `index`: the pi-ai message, or the custom message projection. */
  static toShownMessage(entry: ShownEntry): PiAi.Message | CustomMessageItem {
    if (entry.type === "message") return entry.message;
    const item: CustomMessageItem = {
      role: "custom",
      customType: entry.customType,
      content: entry.content,
      display: true,
      entryId: entry.id,
      timestamp: epochMs(entry.timestamp),
    };
    if (entry.details !== undefined) item.details = entry.details;
    return item;
  }

  private static toPageItem(index: number, entry: ShownEntry): MessagePage["messages"][number] {
    return { index, ...JournalIndex.toShownMessage(entry) };
  }

  private static toContextMessage(entry: ShownEntry): PiAi.Message {
    if (entry.type === "message") return entry.message;
    return { role: "user", content: [{ type: "text", text: entry.content }], timestamp: epochMs(entry.timestamp) };
  }

  private show(entry: ShownEntry): void {
    this.shown.push(entry);
    this.shownBytes.push(NOT_MEASURED);
  }

  private addContext(entry: ShownEntry, seq: number): void {
    this.contextEntries.push(entry);
    this.contextSeqs.push(seq);
  }

  /** Binary search: journal positions of context entries only grow. */
  private firstContextAtOrAfter(seq: number): number {
    let low = 0;
    let high = this.contextSeqs.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.contextSeqs[mid]! < seq) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
