import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { SessionJournal } from "../../../core/journal/session-journal.js";
import type { JournalEntry } from "../../../core/journal/journal-types.js";
import type { OutcomeEntry } from "../../../core/journal/journal-view-types.js";
import type { MessagePage } from "../../../core/wire/session-types.js";
import { assistantMessage, tempDir, userMessage } from "../../fixtures/journal/journal-fixtures.js";

const encoded = (messages: MessagePage["messages"]): number => Buffer.byteLength(JSON.stringify(messages));

/** Follows nextStart to the end, as a client does. */
function allPages(journal: SessionJournal, limit: number, maxBytes: number): MessagePage[] {
  const pages: MessagePage[] = [];
  let start: number | null = 0;
  while (start !== null) {
    const page = journal.getMessagePage(start, limit, maxBytes);
    pages.push(page);
    start = page.nextStart;
  }
  return pages;
}

describe("message pages", () => {
  it("show messages and displayed custom messages, omitting hidden ones", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    journal.append({ type: "message", message: userMessage("q") });
    const hidden = journal.append({ type: "custom_message", customType: "ctx", content: "secret context", display: false });
    const shown = journal.append({ type: "custom_message", customType: "note", content: "visible", display: true, details: { k: 1 } });
    journal.append({ type: "custom", customType: "state", data: 1 });
    journal.append({ type: "message", message: assistantMessage("a") });

    expect(journal.messageCount).toBe(3);
    const page = journal.getMessagePage(0, 100, 1 << 20);
    expect(page).toEqual({
      start: 0,
      total: 3,
      nextStart: null,
      messages: [
        { index: 0, ...userMessage("q") },
        {
          index: 1,
          role: "custom",
          customType: "note",
          content: "visible",
          details: { k: 1 },
          display: true,
          entryId: shown.id,
          timestamp: Date.parse(shown.timestamp),
        },
        { index: 2, ...assistantMessage("a") },
      ],
    });
    expect(JSON.stringify(page)).not.toContain("secret context");
    // Still a journal entry, just not part of the transcript.
    expect(journal.getEntry(hidden.id)).toEqual(hidden);
  });

  it("omits details from a custom message item that has none", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    journal.append({ type: "custom_message", customType: "note", content: "c", display: true });
    expect(Object.keys(journal.getMessagePage(0, 1, 1 << 20).messages[0]!)).toEqual([
      "index",
      "role",
      "customType",
      "content",
      "display",
      "entryId",
      "timestamp",
    ]);
  });

  it("pages by count with nextStart, and returns an empty page past the end", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    for (let i = 0; i < 25; i++) journal.append({ type: "message", message: userMessage(`m${i}`) });
    const pages = allPages(journal, 10, 1 << 20);
    expect(pages.map((page) => [page.start, page.messages.length, page.nextStart])).toEqual([
      [0, 10, 10],
      [10, 10, 20],
      [20, 5, null],
    ]);
    expect(pages.flatMap((page) => page.messages.map((message) => message.index))).toEqual([...Array(25).keys()]);
    expect(pages.flatMap((page) => page.messages.map((message) => message.content))).toEqual(
      [...Array(25).keys()].map((i) => `m${i}`),
    );
    expect(journal.getMessagePage(25, 10, 1 << 20)).toEqual({ start: 25, total: 25, nextStart: null, messages: [] });
    expect(journal.getMessagePage(999, 10, 1 << 20)).toEqual({ start: 999, total: 25, nextStart: null, messages: [] });
  });

  it("stops before the item that would take the page past maxBytes", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    for (let i = 0; i < 40; i++) journal.append({ type: "message", message: userMessage(`${i}:`.padEnd(100 + i * 7, "x")) });
    const maxBytes = 1500;
    const pages = allPages(journal, 100, maxBytes);
    expect(pages.length).toBeGreaterThan(3);
    let seen = 0;
    for (const page of pages) {
      expect(page.start).toBe(seen);
      expect(encoded(page.messages)).toBeLessThanOrEqual(maxBytes);
      seen += page.messages.length;
      if (page.nextStart !== null) {
        // Exactly the fullest page: one more item would not have fit.
        const next = journal.getMessagePage(page.nextStart, 1, maxBytes).messages;
        expect(encoded([...page.messages, ...next])).toBeGreaterThan(maxBytes);
      }
    }
    expect(seen).toBe(40);
  });

  it("counts the bytes exactly at the boundary, multi-byte characters included", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    for (let i = 0; i < 3; i++) journal.append({ type: "message", message: userMessage("é😀".repeat(10)) });
    const three = encoded(journal.getMessagePage(0, 3, 1 << 20).messages);
    expect(journal.getMessagePage(0, 3, three).messages).toHaveLength(3);
    expect(journal.getMessagePage(0, 3, three - 1).messages).toHaveLength(2);
  });

  it("serves an item larger than a page as a clipped stand-in starting its own page, then continues", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    journal.append({ type: "message", message: userMessage("small") });
    journal.append({ type: "message", message: userMessage("x".repeat(5000)) });
    journal.append({ type: "message", message: userMessage("small again") });
    const pages = allPages(journal, 100, 1000);
    expect(pages[0]!.messages.map((message) => message.index)).toEqual([0]);
    expect(pages.flatMap((page) => page.messages.map((message) => message.index))).toEqual([0, 1, 2]);
    const standIn = pages[1]!.messages[0] as unknown as { index: number; truncated: boolean; encodedBytes: number; content: string };
    expect(standIn).toMatchObject({ index: 1, truncated: true, encodedBytes: encoded([journal.getMessagePage(1, 1, 1 << 20).messages[0]]) - 2 });
    expect(standIn.content.length).toBeGreaterThan(0);
    expect("x".repeat(5000).startsWith(standIn.content)).toBe(true);
    for (const page of pages) expect(encoded(page.messages)).toBeLessThanOrEqual(1000);
  });

  it("gives the same pages after a resume as live", () => {
    const { dir, cleanup } = tempDir();
    try {
      const journal = SessionJournal.create(dir, "s", "/p");
      for (let i = 0; i < 30; i++) {
        journal.append({ type: "message", message: i % 2 ? assistantMessage(`a${i}`.repeat(i)) : userMessage(`u${i}`) });
        if (i % 5 === 0) journal.append({ type: "custom_message", customType: "n", content: `n${i}`, display: i % 10 === 0 });
      }
      journal.close();
      const resumed = SessionJournal.open(journal.file!);
      expect(allPages(resumed, 7, 800)).toEqual(allPages(journal, 7, 800));
      resumed.close();
    } finally {
      cleanup();
    }
  });
});

describe("outcome pages", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
  });
  afterEach(() => cleanup());

  const outcome = (n: number, evidence?: unknown) => ({
    type: "operation_outcome" as const,
    operationId: `op-${n}`,
    capability: "fs",
    operation: "write",
    result: n % 2 ? "ok" : "failed",
    durationMs: n * 3,
    ...(evidence === undefined ? {} : { evidence }),
  });

  it("list outcomes in journal order with exactly the event's projection", () => {
    const journal = SessionJournal.create(dir, "s", "/p");
    const appended: JournalEntry[] = [];
    for (let i = 0; i < 12; i++) {
      appended.push(journal.append(outcome(i, i % 3 ? { path: `f${i}` } : undefined)));
      journal.append({ type: "message", message: userMessage(`between ${i}`) });
    }
    expect(journal.outcomeCount).toBe(12);

    const first = journal.getOutcomePage(0, 5);
    expect(first.total).toBe(12);
    expect(first.nextStart).toBe(5);
    const entry = appended[1] as OutcomeEntry;
    expect(first.outcomes[1]).toEqual({
      index: 1,
      id: entry.id,
      parentId: entry.parentId,
      timestamp: entry.timestamp,
      operationId: "op-1",
      capability: "fs",
      operation: "write",
      result: "ok",
      durationMs: 3,
      evidence: { path: "f1" },
    });
    expect("evidence" in first.outcomes[0]!).toBe(false);

    // The live event uses the same function: page item == { index, ...toOutcome(entry) }.
    const items = [...first.outcomes, ...journal.getOutcomePage(5, 5).outcomes, ...journal.getOutcomePage(10, 5).outcomes];
    expect(items).toEqual(appended.map((e, index) => ({ index, ...SessionJournal.toOutcome(e as OutcomeEntry) })));
    expect(items.map((item) => Object.keys(item))).toEqual(
      appended.map((e) => ["index", ...Object.keys(journal.toOutcome(e as OutcomeEntry))]),
    );
    expect(journal.getOutcomePage(10, 5).nextStart).toBeNull();
    expect(journal.getOutcomePage(12, 5)).toEqual({ start: 12, total: 12, nextStart: null, outcomes: [] });
    expect(journal.getOutcomePage(40, 5)).toEqual({ start: 40, total: 12, nextStart: null, outcomes: [] });

    journal.close();
    const resumed = SessionJournal.open(journal.file!);
    expect(resumed.getOutcomePage(0, 100).outcomes).toEqual(items);
    resumed.close();
  });
});
