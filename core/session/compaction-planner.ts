import type * as PiAi from "@mariozechner/pi-ai";
import type { JournalEntry } from "../journal/journal-types.js";
import type { SessionJournalLike } from "./agent-session-options.js";
import { isReplayable } from "./model-context.js";
import { sliceChars } from "../wire/utf8-clip.js";

/** One context entry as the summariser sees it. */
interface ContextItem {
  id: string;
  text: string;
  tokens: number;
  /** False for tool results: keeping one without the call it answers would orphan it. */
  cuttable: boolean;
}

export interface CompactionPlan {
  previousSummary: string | undefined;
  /** The serialised conversation to summarise, oldest first. */
  transcript: string;
  firstKeptEntryId: string;
  estimatedTokens: number;
}

const TOOL_RESULT_MAX_CHARS = 2000;
const IMAGE_TOKENS = 1200;

const estimate = (text: string): number => Math.ceil(text.length / 4);

/**
 * Chooses what a compaction summarises: the current context (what follows the last compaction's
 * kept point) minus its newest entries worth about `keepRecentTokens`, cut at an entry that is not
 * a tool result. Follows the journal's context rule: kept from `firstKeptEntryId`, or from the
 * compaction entry itself when that id is unknown.
 */
export class CompactionPlanner {
  constructor(private readonly journal: SessionJournalLike) {}

  plan(keepRecentTokens: number): CompactionPlan | undefined {
    const entries = this.journal.pathEntries();
    let from = 0;
    let previousSummary: string | undefined;
    for (let index = entries.length - 1; index >= 0; index--) {
      const entry = entries[index]!;
      if (entry.type !== "compaction") continue;
      previousSummary = entry.summary;
      const kept = entries.findIndex((candidate) => candidate.id === entry.firstKeptEntryId);
      from = kept >= 0 ? kept : index;
      break;
    }
    const items = entries.slice(from).flatMap((entry) => CompactionPlanner.item(entry));
    const cut = CompactionPlanner.cutIndex(items, keepRecentTokens);
    if (cut === undefined) return undefined;
    const summarised = items.slice(0, cut);
    return {
      previousSummary,
      transcript: summarised.map((item) => item.text).join("\n\n"),
      firstKeptEntryId: items[cut]!.id,
      estimatedTokens: items.reduce((sum, item) => sum + item.tokens, estimate(previousSummary ?? "")),
    };
  }

  private static cutIndex(items: ContextItem[], keepRecentTokens: number): number | undefined {
    let cut = items.length;
    let kept = 0;
    while (cut > 0 && kept < keepRecentTokens) kept += items[--cut]!.tokens;
    while (cut < items.length && !items[cut]!.cuttable) cut++;
    // Everything left was tool results: keep the newest cuttable entry instead.
    if (cut === items.length) {
      cut = items.length - 1;
      while (cut > 0 && !items[cut]!.cuttable) cut--;
    }
    return cut > 0 ? cut : undefined;
  }

  private static item(entry: JournalEntry): ContextItem[] {
    if (entry.type === "custom_message") {
      const text = `[Context ${entry.customType}]: ${entry.content}`;
      return [{ id: entry.id, text, tokens: estimate(text), cuttable: true }];
    }
    if (entry.type !== "message" || !isReplayable(entry.message)) return [];
    const { text, images } = CompactionPlanner.serialise(entry.message);
    return [{ id: entry.id, text, tokens: estimate(text) + images * IMAGE_TOKENS, cuttable: entry.message.role !== "toolResult" }];
  }

  /** Plain text, so the summariser reads a transcript instead of continuing a conversation. */
  static serialise(message: PiAi.Message): { text: string; images: number } {
    let images = 0;
    const blocks = (content: string | (PiAi.TextContent | PiAi.ImageContent)[]): string => {
      if (typeof content === "string") return content;
      return content
        .map((block) => {
          if (block.type === "text") return block.text;
          images++;
          return "[image]";
        })
        .join("\n");
    };
    if (message.role === "user") return { text: `[User]: ${blocks(message.content)}`, images };
    if (message.role === "toolResult") {
      let body = blocks(message.content);
      if (body.length > TOOL_RESULT_MAX_CHARS) body = `${sliceChars(body, TOOL_RESULT_MAX_CHARS)} [... truncated]`;
      return { text: `[Tool result ${message.toolName}${message.isError ? " (error)" : ""}]: ${body}`, images };
    }
    const parts = message.content.map((block) => {
      if (block.type === "text") return `[Assistant]: ${block.text}`;
      if (block.type === "thinking") return `[Assistant thinking]: ${block.thinking}`;
      return `[Assistant tool call]: ${block.name}(${JSON.stringify(block.arguments)})`;
    });
    return { text: parts.join("\n"), images };
  }
}
