import { describe, expect, it } from "@jest/globals";
import { SessionJournal } from "../../../core/journal/session-journal.js";
import { assistantMessage, tempDir, userMessage } from "../../fixtures/journal/journal-fixtures.js";

const texts = (journal: SessionJournal): string[] =>
  journal.buildContextMessages().map((message) => {
    const content = message.content;
    const text = typeof content === "string" ? content : content.map((part) => ("text" in part ? part.text : "")).join("");
    return `${message.role}:${text}`;
  });

describe("model context", () => {
  it("without compaction holds every message, with custom messages (shown or hidden) as user messages", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    journal.append({ type: "message", message: userMessage("q1") });
    journal.append({ type: "custom_message", customType: "ctx", content: "hidden ctx", display: false });
    journal.append({ type: "model_change", provider: "faux", modelId: "echo" });
    journal.append({ type: "message", message: assistantMessage("a1") });
    const note = journal.append({ type: "custom_message", customType: "note", content: "shown note", display: true });
    journal.append({ type: "custom", customType: "state" });
    journal.append({ type: "operation_outcome", operationId: "o", capability: "c", operation: "op", result: "ok", durationMs: 1 });

    expect(texts(journal)).toEqual(["user:q1", "user:hidden ctx", "assistant:a1", "user:shown note"]);
    expect(journal.buildContextMessages()[3]).toEqual({
      role: "user",
      content: [{ type: "text", text: "shown note" }],
      timestamp: Date.parse(note.timestamp),
    });
    expect(journal.buildContextMessages()[2]).toEqual(assistantMessage("a1"));
  });

  it("after a compaction holds the summary, then the messages from firstKeptEntryId on", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    journal.append({ type: "message", message: userMessage("old q") });
    journal.append({ type: "message", message: assistantMessage("old a") });
    const kept = journal.append({ type: "message", message: userMessage("kept q") });
    journal.append({ type: "custom_message", customType: "ctx", content: "kept ctx", display: false });
    journal.append({ type: "message", message: assistantMessage("kept a") });
    journal.append({ type: "compaction", summary: "they talked", firstKeptEntryId: kept.id, tokensBefore: 1234 });
    journal.append({ type: "message", message: userMessage("new q") });

    const context = texts(journal);
    expect(context[0]).toMatch(/^user:.*<summary>\nthey talked\n<\/summary>$/s);
    expect(context.slice(1)).toEqual(["user:kept q", "user:kept ctx", "assistant:kept a", "user:new q"]);
    // The transcript for clients is not compacted.
    expect(journal.messageCount).toBe(5);

    // A later compaction replaces the earlier one; firstKept may point at a non-message entry.
    const marker = journal.append({ type: "custom", customType: "mark" });
    journal.append({ type: "message", message: assistantMessage("newest a") });
    journal.append({ type: "compaction", summary: "second", firstKeptEntryId: marker.id, tokensBefore: 99 });
    expect(texts(journal)).toEqual([expect.stringContaining("<summary>\nsecond\n</summary>"), "assistant:newest a"]);
  });

  it("keeps only what follows the compaction when firstKeptEntryId is unknown", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    journal.append({ type: "message", message: userMessage("old") });
    journal.append({ type: "compaction", summary: "sum", firstKeptEntryId: "missing", tokensBefore: 1 });
    journal.append({ type: "message", message: userMessage("new") });
    expect(texts(journal).slice(1)).toEqual(["user:new"]);
  });

  it("is rebuilt identically on resume", () => {
    const { dir, cleanup } = tempDir();
    try {
      const journal = SessionJournal.create(dir, "s", "/p");
      journal.append({ type: "message", message: userMessage("a") });
      const kept = journal.append({ type: "message", message: assistantMessage("b") });
      journal.append({ type: "compaction", summary: "sum", firstKeptEntryId: kept.id, tokensBefore: 5 });
      journal.append({ type: "custom_message", customType: "x", content: "c", display: false });
      journal.close();
      const resumed = SessionJournal.open(journal.file!);
      expect(resumed.buildContextMessages()).toEqual(journal.buildContextMessages());
      expect(texts(resumed).slice(1)).toEqual(["assistant:b", "user:c"]);
      resumed.close();
    } finally {
      cleanup();
    }
  });
});
