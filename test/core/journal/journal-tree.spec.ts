import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { SessionJournal } from "../../../core/journal/session-journal.js";
import { assistantMessage, tempDir, userMessage } from "../../fixtures/journal/journal-fixtures.js";

const textOf = (message: { content: unknown }): string =>
  typeof message.content === "string" ? message.content : (message.content as { text?: string }[]).map((part) => part.text ?? "").join("");

describe("the journal as a tree", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
  });
  afterEach(() => cleanup());

  const twoExchanges = () => {
    const journal = SessionJournal.create(dir, "tree", "/p", { fsync: false });
    journal.append({ type: "message", message: userMessage("one") });
    const answer = journal.append({ type: "message", message: assistantMessage("re one") });
    journal.append({ type: "message", message: userMessage("two") });
    journal.append({ type: "message", message: assistantMessage("re two") });
    return { journal, answer };
  };

  it("a linear journal's path is every entry and its leaf the last one (old journals read as before)", () => {
    const { journal } = twoExchanges();
    expect(journal.pathEntries()).toEqual([...journal.entries()]);
    expect(journal.leafId).toBe(journal.lastEntryId);
    expect(journal.messageCount).toBe(4);
    journal.close();
  });

  it("a branch entry moves the leaf: transcript and context are the path to it, the next entry branches there, the rest stays in the file", () => {
    const { journal, answer } = twoExchanges();
    const branch = journal.append({ type: "branch", fromId: journal.leafId }, answer.id);
    expect(branch.parentId).toBe(answer.id);
    expect(journal.messageCount).toBe(2);
    expect(journal.buildContextMessages().map(textOf)).toEqual(["one", "re one"]);
    const three = journal.append({ type: "message", message: userMessage("three") });
    expect(three.parentId).toBe(branch.id);
    expect(journal.buildContextMessages().map(textOf)).toEqual(["one", "re one", "three"]);
    expect(journal.getMessagePage(0, 10, 1 << 20).messages.map((message) => textOf(message as never))).toEqual(["one", "re one", "three"]);
    expect([...journal.entries()]).toHaveLength(7); // the header, four messages, the branch, three
    expect(journal.onPath(answer.id)).toBe(true);
    journal.close();
    // Resumed, the journal is at the same point.
    const resumed = SessionJournal.open(journal.file!, { fsync: false });
    expect(resumed.buildContextMessages().map(textOf)).toEqual(["one", "re one", "three"]);
    expect(resumed.leafId).toBe(three.id);
    resumed.close();
  });

  it("a branch's summary of the branch left is on the new path, as context for the model", () => {
    const { journal, answer } = twoExchanges();
    journal.append({ type: "branch", fromId: journal.leafId, summary: "tried two, it failed" }, answer.id);
    const context = journal.buildContextMessages();
    expect(context).toHaveLength(3);
    expect(textOf(context[2]!)).toContain("tried two, it failed");
    expect(journal.messageCount).toBe(2); // the summary is not a transcript message
    journal.close();
  });

  it("going back to an entry of an abandoned branch follows that branch's own path", () => {
    const { journal, answer } = twoExchanges();
    const abandoned = journal.lastEntryId!;
    journal.append({ type: "branch", fromId: abandoned }, answer.id);
    journal.append({ type: "message", message: userMessage("other") });
    journal.append({ type: "branch", fromId: journal.leafId }, abandoned);
    expect(journal.buildContextMessages().map(textOf)).toEqual(["one", "re one", "two", "re two"]);
    journal.close();
  });

  it("a compaction on the branch left does not shorten the new path's context", () => {
    const { journal, answer } = twoExchanges();
    journal.append({ type: "compaction", summary: "S", firstKeptEntryId: journal.lastEntryId!, tokensBefore: 10 });
    expect(journal.buildContextMessages()).toHaveLength(2);
    journal.append({ type: "branch", fromId: journal.leafId }, answer.id);
    expect(journal.buildContextMessages().map(textOf)).toEqual(["one", "re one"]);
    journal.close();
  });

  it("only a branch entry names its parent, and it must be an entry of this journal", () => {
    const { journal } = twoExchanges();
    expect(() => journal.append({ type: "branch", fromId: "x" }, "missing")).toThrow("no entry missing");
    expect(() => journal.append({ type: "message", message: userMessage("x") }, journal.leafId)).toThrow();
    journal.close();
  });

  it("a fork is a new file holding the path, each entry's parent the one before, its header naming the source", () => {
    const { journal, answer } = twoExchanges();
    const path = journal.pathTo(answer.id)!.filter((entry) => entry.type !== "session");
    const fork = SessionJournal.fork(dir, "forked", "/p", path, journal.file, { fsync: false });
    expect(fork.buildContextMessages().map(textOf)).toEqual(["one", "re one"]);
    expect(fork.forkedFrom).toBe(journal.file);
    const lines = readFileSync(fork.file!, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(lines.map((line) => line.type)).toEqual(["session", "message", "message"]);
    expect(lines[1].parentId).toBe(lines[0].id);
    expect(lines[2].id).toBe(answer.id);
    fork.close();
    journal.close();
  });
});
