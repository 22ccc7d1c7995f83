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
type BranchEntry = Extract<JournalEntry, { type: "branch" }>;
type ContextEntry = ShownEntry | BranchEntry;

const SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
const SUMMARY_SUFFIX = "\n</summary>";
const BRANCH_PREFIX = "The following is a summary of a branch of this conversation that was left to return here:\n\n<summary>\n";
const NOT_MEASURED = -1;

const epochMs = (iso: string): number => {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : 0;
};

/**
 * The in-memory views of one journal, updated entry by entry in journal order (on load and on
 * append), so every query costs O(its answer), never O(session length).
 *
 * The journal is a tree (docs/sessions.md): the current leaf is the last entry, every entry extends
 * the path to it, and only a `branch` entry moves the leaf, to its `parentId` (an earlier entry).
 * The transcript, the model's context and the latest compaction are views of the path from the root
 * to the leaf, rebuilt when a branch entry moves it; outcomes, the work plan, the model and the
 * thinking level are the file's latest. An entry's path parent is the leaf it was appended to (for a
 * branch, its target), so a damaged line that was skipped never breaks a path.
 */
export class JournalIndex {
  private readonly all: JournalEntry[] = [];
  private readonly seqById = new Map<string, number>();
  /** By file position: the path position's predecessor (-1 for the root). */
  private readonly pathParent: number[] = [];
  /** The path from the root to the leaf, by file position, and each id's place on it. */
  private path: number[] = [];
  private pathPos = new Map<string, number>();
  /** The transcript of `session.get_messages`: messages and displayed custom messages. */
  private shown: ShownEntry[] = [];
  /** Encoded byte length of each shown item, measured when a page first touches it. */
  private shownBytes: number[] = [];
  private readonly outcomes: OutcomeEntry[] = [];
  /** Everything the model may see (messages, all custom messages, branch summaries) with its path position. */
  private contextEntries: ContextEntry[] = [];
  private contextSeqs: number[] = [];
  private compaction: { entry: CompactionEntry; seq: number } | null = null;
  private plan: WorkPlan = { revision: 0, steps: [] };
  private model: JournalModel | null = null;
  private thinking: ThinkingLevel | null = null;

  add(entry: JournalEntry): void {
    const seq = this.all.length;
    const target = entry.type === "branch" && entry.parentId !== null ? this.seqById.get(entry.parentId) : undefined;
    this.all.push(entry);
    this.seqById.set(entry.id, seq);
    this.pathParent.push(target ?? this.path.at(-1) ?? -1);
    if (target !== undefined) this.rebuildPath(seq);
    else this.extendPath(seq);
    switch (entry.type) {
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
    }
  }

  /** The leaf: the last entry; a `branch` entry's own parentId says where it moved the leaf. */
  get leafId(): string | null {
    return this.lastEntryId;
  }

  /** Whether `id` is on the path from the root to the leaf. */
  onPath(id: string): boolean {
    return this.pathPos.has(id);
  }

  /** The entries from the root to the leaf, in order. */
  pathEntries(): JournalEntry[] {
    return this.path.map((seq) => this.all[seq]!);
  }

  /** The entries from the root to `id` (inclusive), or undefined for an unknown id. */
  pathTo(id: string): JournalEntry[] | undefined {
    let seq = this.seqById.get(id);
    if (seq === undefined) return undefined;
    const entries: JournalEntry[] = [];
    for (; seq !== -1; seq = this.pathParent[seq]!) entries.push(this.all[seq]!);
    return entries.reverse();
  }

  /** File positions, for paging the tree. */
  entryAt(seq: number): JournalEntry | undefined {
    return this.all[seq];
  }

  private extendPath(seq: number): void {
    const entry = this.all[seq]!;
    const position = this.path.length;
    this.path.push(seq);
    this.pathPos.set(entry.id, position);
    switch (entry.type) {
      case "message":
        this.show(entry);
        this.addContext(entry, position);
        break;
      case "custom_message":
        if (entry.display) this.show(entry);
        this.addContext(entry, position);
        break;
      case "branch":
        if (entry.summary !== undefined) this.addContext(entry, position);
        break;
      case "compaction":
        this.compaction = { entry, seq: position };
        break;
    }
  }

  /** The leaf moved: the path views are those of the path to `seq` (O(its length); moves are rare). */
  private rebuildPath(seq: number): void {
    const chain: number[] = [];
    for (let at = seq; at !== -1; at = this.pathParent[at]!) chain.push(at);
    this.path = [];
    this.pathPos = new Map();
    this.shown = [];
    this.shownBytes = [];
    this.contextEntries = [];
    this.contextSeqs = [];
    this.compaction = null;
    for (let i = chain.length - 1; i >= 0; i--) this.extendPath(chain[i]!);
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
    const keptSeq = this.pathPos.get(compaction.entry.firstKeptEntryId) ?? compaction.seq;
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

  private static toContextMessage(entry: ContextEntry): PiAi.Message {
    if (entry.type === "message") return entry.message;
    if (entry.type === "branch") {
      return { role: "user", content: [{ type: "text", text: BRANCH_PREFIX + (entry.summary ?? "") + SUMMARY_SUFFIX }], timestamp: epochMs(entry.timestamp) };
    }
    return { role: "user", content: [{ type: "text", text: entry.content }], timestamp: epochMs(entry.timestamp) };
  }

  private show(entry: ShownEntry): void {
    this.shown.push(entry);
    this.shownBytes.push(NOT_MEASURED);
  }

  private addContext(entry: ContextEntry, seq: number): void {
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
