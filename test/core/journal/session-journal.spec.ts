import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { RpcError } from "../../../core/kernel/rpc-error.js";
import { SessionJournal } from "../../../core/journal/session-journal.js";
import type { JournalEntry } from "../../../core/journal/journal-types.js";
import { assistantMessage, captureStderr, tempDir, userMessage } from "../../fixtures/journal/journal-fixtures.js";

const lines = (file: string): string[] => readFileSync(file, "utf8").split("\n");

describe("SessionJournal files", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
  });
  afterEach(() => cleanup());

  it("creates <dir>/<timestamp>_<sessionId>.jsonl with the session header as first line", () => {
    const sessions = join(dir, "nested", "sessions");
    const journal = SessionJournal.create(sessions, "s-123", "/project");
    expect(journal.file).not.toBeNull();
    const file = journal.file!;
    expect(basename(file)).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_s-123\.jsonl$/);
    expect(readdirSync(sessions)).toEqual([basename(file)]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const [header, rest] = lines(file);
    expect(JSON.parse(header!)).toMatchObject({ type: "session", version: 1, sessionId: "s-123", cwd: "/project", parentId: null });
    expect(rest).toBe("");
    expect(journal.sessionId).toBe("s-123");
    expect(journal.cwd).toBe("/project");
    journal.close();
  });

  it("rejects a session id that could escape the directory", () => {
    expect(() => SessionJournal.create(dir, "../evil", "/p")).toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("chains ids and parentIds and writes each entry before append returns", () => {
    const journal = SessionJournal.create(dir, "chain", "/p");
    const appended: JournalEntry[] = [];
    for (let i = 0; i < 50; i++) {
      appended.push(journal.append({ type: "message", message: userMessage(`m${i}`) }));
      // On disk already: the caller announces the entry right after append returns.
      const onDisk = lines(journal.file!).filter((line) => line.length > 0);
      expect(JSON.parse(onDisk.at(-1)!)).toEqual(appended.at(-1));
    }
    const all = [...journal.entries()];
    expect(all).toHaveLength(51);
    expect(all[0]!.parentId).toBeNull();
    for (let i = 1; i < all.length; i++) expect(all[i]!.parentId).toBe(all[i - 1]!.id);
    expect(new Set(all.map((entry) => entry.id)).size).toBe(51);
    for (const entry of all) {
      expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
      expect(new Date(entry.timestamp).toISOString()).toBe(entry.timestamp);
    }
    expect(journal.lastEntryId).toBe(all.at(-1)!.id);
    expect(journal.getEntry(all[7]!.id)).toEqual(all[7]);
    journal.close();
  });

  it("keeps caller-supplied id/parentId/timestamp from overriding the journal's own", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    const forged = { type: "custom", customType: "x", id: "forged", parentId: "nope", timestamp: "then" };
    const entry = journal.append(forged as never);
    expect(entry.id).not.toBe("forged");
    expect(entry.parentId).toBe([...journal.entries()][0]!.id);
    expect(entry.timestamp).not.toBe("then");
  });

  it("stores the written form, detached from the caller's objects", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    const message = userMessage("original");
    const entry = journal.append({ type: "message", message });
    message.content = "mutated later";
    expect(entry).toMatchObject({ message: { content: "original" } });
    expect(journal.getMessagePage(0, 10, 1 << 20).messages[0]).toMatchObject({ content: "original" });
  });

  it("refuses entries that a resume could not read, and a second header", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    expect(() => journal.append({ type: "message", message: {} as never })).toThrow(/malformed message/);
    expect(() => journal.append({ type: "session", version: 1, sessionId: "x", cwd: "/" })).toThrow();
    expect(journal.entryCount).toBe(1);
  });

  it("round-trips: open resumes entries, indexes and the chain, and appends continue it", () => {
    const journal = SessionJournal.create(dir, "rt", "/p");
    journal.append({ type: "message", message: userMessage("hi") });
    journal.append({ type: "model_change", provider: "faux", modelId: "echo" });
    journal.append({ type: "thinking_level_change", thinkingLevel: "high" });
    journal.append({ type: "message", message: assistantMessage("hello") });
    journal.append({ type: "work_plan", workPlan: { revision: 1, steps: [{ title: "a", status: "pending" }] } });
    journal.append({ type: "work_plan", workPlan: { revision: 2, steps: [{ title: "a", status: "completed" }] } });
    journal.append({ type: "custom_message", customType: "note", content: "shown", display: true });
    journal.append({ type: "custom", customType: "ext-state", data: { n: 1 } });
    const before = [...journal.entries()];
    journal.close();
    expect(() => journal.append({ type: "custom", customType: "x" })).toThrow(RpcError);

    const { result: resumed, lines: warnings } = captureStderr(() => SessionJournal.open(journal.file!));
    expect(warnings).toEqual([]);
    expect([...resumed.entries()]).toEqual(before);
    expect(resumed.sessionId).toBe("rt");
    expect(resumed.messageCount).toBe(3);
    expect(resumed.model).toEqual({ provider: "faux", modelId: "echo" });
    expect(resumed.thinkingLevel).toBe("high");
    expect(resumed.workPlan).toEqual({ revision: 2, steps: [{ title: "a", status: "completed" }] });
    expect(resumed.getMessagePage(0, 100, 1 << 20)).toEqual(journal.getMessagePage(0, 100, 1 << 20));

    const next = resumed.append({ type: "message", message: userMessage("again") });
    expect(next.parentId).toBe(before.at(-1)!.id);
    resumed.close();
    const again = SessionJournal.open(journal.file!);
    expect([...again.entries()]).toEqual([...before, next]);
    again.close();
  });

  it("reports defaults before anything was chosen", () => {
    const journal = SessionJournal.inMemory("s", "/p");
    expect(journal.workPlan).toEqual({ revision: 0, steps: [] });
    expect(journal.model).toBeNull();
    expect(journal.thinkingLevel).toBeNull();
    expect(journal.messageCount).toBe(0);
    expect(journal.getMessagePage(0, 100, 1000)).toEqual({ start: 0, total: 0, nextStart: null, messages: [] });
  });

  it("in-memory mode writes no file", () => {
    const journal = SessionJournal.inMemory("mem", "/p");
    journal.append({ type: "message", message: userMessage("hi") });
    journal.close();
    expect(journal.file).toBeNull();
    expect(journal.messageCount).toBe(1);
    // Still appendable after close: there is no file to lose.
    journal.append({ type: "message", message: userMessage("again") });
    expect(journal.messageCount).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("open of a missing file is not_found", () => {
    expect(() => SessionJournal.open(join(dir, "missing.jsonl"))).toThrow(
      expect.objectContaining({ code: "not_found" }) as unknown as Error,
    );
  });

  it("refuses a FIFO, a device and a directory before reading a byte", () => {
    const fifo = join(dir, "fifo.jsonl");
    execFileSync("mkfifo", [fifo]);
    for (const [path, kind] of [[fifo, "a FIFO"], ["/dev/zero", "a character device"], [dir, "a directory"]] as const) {
      const { lines: warnings } = captureStderr(() => {
        expect(() => SessionJournal.open(path)).toThrow(new RpcError("operation_failed", `session file ${path} is ${kind}, not a regular file`));
      });
      expect(warnings).toEqual([]);
    }
  });

  it("rejects a file whose first line is not a session header, leaving it untouched", () => {
    const file = join(dir, "other.jsonl");
    writeFileSync(file, '{"hello":"world"}\n');
    const { lines: warnings } = captureStderr(() => {
      expect(() => SessionJournal.open(file)).toThrow(expect.objectContaining({ code: "operation_failed" }) as unknown as Error);
    });
    expect(warnings).toHaveLength(1);
    expect(readFileSync(file, "utf8")).toBe('{"hello":"world"}\n');
    writeFileSync(file, "");
    captureStderr(() => expect(() => SessionJournal.open(file)).toThrow(/empty/));
  });
});

describe("SessionJournal recovery", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
  });
  afterEach(() => cleanup());

  function journalWith(count: number): { file: string; entries: JournalEntry[] } {
    const journal = SessionJournal.create(dir, "torn", "/p");
    for (let i = 0; i < count; i++) journal.append({ type: "message", message: userMessage(`m${i}`) });
    journal.close();
    return { file: journal.file!, entries: [...journal.entries()] };
  }

  it("truncates a torn last line (half a line, no LF), warns once, and appends on a clean line", () => {
    const { file, entries } = journalWith(3);
    const intact = readFileSync(file, "utf8");
    const line = JSON.stringify({
      type: "message",
      id: "deadbeef",
      parentId: entries.at(-1)!.id,
      timestamp: new Date().toISOString(),
      message: userMessage("torn"),
    });
    appendFileSync(file, line.slice(0, Math.floor(line.length / 2)));

    const { result: journal, lines: warnings } = captureStderr(() => SessionJournal.open(file));
    expect(warnings).toEqual([expect.stringMatching(/cut a torn last line at line 5 \(invalid JSON\); its bytes are in .*\.damaged$/)]);
    expect(readFileSync(file, "utf8")).toBe(intact);
    expect([...journal.entries()]).toEqual(entries);
    expect(asideRecords(file)).toEqual([
      { line: 5, offset: Buffer.byteLength(intact), problem: "invalid JSON", torn: true, base64: expect.any(String), text: line.slice(0, Math.floor(line.length / 2)) },
    ]);

    const next = journal.append({ type: "message", message: userMessage("after") });
    journal.close();
    expect(next.parentId).toBe(entries.at(-1)!.id);
    const { result: again, lines: none } = captureStderr(() => SessionJournal.open(file));
    expect(none).toEqual([]);
    expect([...again.entries()]).toEqual([...entries, next]);
    again.close();
  });

  it("never cuts a complete last line that is not JSON (e.g. zero-filled blocks): it stays, is skipped and is copied aside", () => {
    const { file, entries } = journalWith(2);
    appendFileSync(file, "\0\0\0\0\0\0\n");
    const damaged = readFileSync(file, "utf8");
    const { result: journal, lines: warnings } = captureStderr(() => SessionJournal.open(file));
    expect(warnings).toEqual([expect.stringMatching(/skipped 1 malformed line\(s\); first at line 4 \(invalid JSON\); they stay in the journal, copies are in .*\.damaged$/)]);
    expect(readFileSync(file, "utf8")).toBe(damaged);
    expect([...journal.entries()]).toEqual(entries);
    const next = journal.append({ type: "custom", customType: "after" });
    journal.close();
    expect(next.parentId).toBe(entries.at(-1)!.id);
    expect(asideRecords(file)).toEqual([{ line: 4, offset: damaged.length - 7, problem: "invalid JSON", torn: false, base64: Buffer.from("\0\0\0\0\0\0").toString("base64"), text: "\0\0\0\0\0\0" }]);
    // Resumed again: reported again, recorded once.
    const { result: again } = captureStderr(() => SessionJournal.open(file));
    expect([...again.entries()]).toEqual([...entries, next]);
    again.close();
    expect(asideRecords(file)).toHaveLength(1);
    expect(statSync(`${file}.damaged`).mode & 0o777).toBe(0o600);
  });

  it("does not decode invalid UTF-8 into U+FFFD: the line is damaged, kept in place and copied aside byte for byte", () => {
    const { file, entries } = journalWith(2);
    const original = readFileSync(file);
    const bad = Buffer.concat([Buffer.from('{"type":"custom","id":"bad00001","parentId":null,"timestamp":"t","customType":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]);
    const lastLine = lines(file).at(-2)!;
    const withBad = Buffer.concat([original.subarray(0, original.length - Buffer.byteLength(lastLine) - 1), bad, Buffer.from(`${lastLine}\n`)]);
    writeFileSync(file, withBad);
    const { result: journal, lines: warnings } = captureStderr(() => SessionJournal.open(file));
    expect(warnings).toEqual([expect.stringMatching(/skipped 1 malformed line\(s\); first at line 3 \(invalid UTF-8\)/)]);
    expect([...journal.entries()].map((entry) => entry.id)).toEqual(entries.map((entry) => entry.id));
    journal.close();
    expect(readFileSync(file).equals(withBad)).toBe(true);
    const [record] = asideRecords(file);
    expect(record).toMatchObject({ line: 3, problem: "invalid UTF-8", torn: false });
    expect(Buffer.from(record.base64 as string, "base64").equals(bad.subarray(0, -1))).toBe(true);
    expect(record).not.toHaveProperty("text");
  });

  it("ends a torn last line with LF instead of cutting it when it cannot be copied aside", () => {
    const { file, entries } = journalWith(1);
    appendFileSync(file, '{"type":"mess');
    const torn = readFileSync(file, "utf8");
    mkdirSync(`${file}.damaged`);
    const { result: journal, lines: warnings } = captureStderr(() => SessionJournal.open(file));
    expect(warnings).toEqual([
      expect.stringMatching(/cannot copy damaged lines to .*\.damaged/),
      expect.stringMatching(/kept a torn last line at line 3 \(invalid JSON\) and ended it with LF; it is skipped$/),
    ]);
    expect(readFileSync(file, "utf8")).toBe(`${torn}\n`);
    const next = journal.append({ type: "custom", customType: "after" });
    journal.close();
    const { result: again } = captureStderr(() => SessionJournal.open(file));
    expect([...again.entries()]).toEqual([...entries, next]);
    again.close();
  });

  it("keeps a complete last entry that only lacks its LF, and adds the LF", () => {
    const { file, entries } = journalWith(2);
    const intact = readFileSync(file, "utf8");
    writeFileSync(file, intact.slice(0, -1));
    const { result: journal, lines: warnings } = captureStderr(() => SessionJournal.open(file));
    expect(warnings).toEqual([]);
    expect(readFileSync(file, "utf8")).toBe(intact);
    expect([...journal.entries()]).toEqual(entries);
    const next = journal.append({ type: "custom", customType: "x" });
    journal.close();
    const again = SessionJournal.open(file);
    expect([...again.entries()]).toEqual([...entries, next]);
    again.close();
  });

  it("skips malformed lines in the middle with one warning and leaves them in the file", () => {
    const { file, entries } = journalWith(4);
    const original = lines(file);
    // Garbage after the 2nd message and an entry of an unknown type after the 3rd.
    const unknownType = '{"type":"future","id":"x","parentId":null,"timestamp":"t"}';
    const edited = [...original.slice(0, 3), "not json {", original[3]!, unknownType, ...original.slice(4)];
    writeFileSync(file, edited.join("\n"));

    const { result: journal, lines: warnings } = captureStderr(() => SessionJournal.open(file));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/skipped 2 malformed line\(s\); first at line 4 \(invalid JSON\)/);
    expect([...journal.entries()]).toEqual(entries);
    expect(journal.messageCount).toBe(4);
    expect(readFileSync(file, "utf8")).toBe(edited.join("\n"));
    const next = journal.append({ type: "message", message: userMessage("after") });
    expect(next.parentId).toBe(entries.at(-1)!.id);
    journal.close();
  });

  it("never cuts a last line that is JSON: an entry type it does not know is skipped, not truncated", () => {
    const { file, entries } = journalWith(2);
    const future = '{"type":"from_a_newer_zi","id":"abcd1234","parentId":null,"timestamp":"2030-01-01T00:00:00.000Z"}';
    appendFileSync(file, future);
    const withFuture = readFileSync(file, "utf8");
    const { result: journal, lines: warnings } = captureStderr(() => SessionJournal.open(file));
    expect(warnings).toEqual([expect.stringMatching(/skipped 1 malformed line\(s\); first at line 4 \(unknown entry type/)]);
    expect([...journal.entries()]).toEqual(entries);
    expect(readFileSync(file, "utf8")).toBe(`${withFuture}\n`);
    journal.append({ type: "custom", customType: "x" });
    journal.close();
    expect(lines(file)[3]).toBe(future);
  });

  it("recovers lines longer than the read chunk and multi-byte text", () => {
    const journal = SessionJournal.create(dir, "big", "/p");
    const big = "é€😀".repeat(400_000); // ~3.6 MB of UTF-8, spans several 1 MiB chunks
    journal.append({ type: "message", message: userMessage(big) });
    journal.append({ type: "message", message: userMessage("small") });
    journal.close();
    appendFileSync(file(journal), '{"type":"mess');
    const { result: resumed, lines: warnings } = captureStderr(() => SessionJournal.open(file(journal)));
    expect(warnings).toHaveLength(1);
    expect([...resumed.entries()]).toEqual([...journal.entries()]);
    expect(resumed.getMessagePage(0, 1, 1 << 30).messages[0]).toMatchObject({ content: big });
    resumed.close();
  });
});

const file = (journal: SessionJournal): string => journal.file!;

/** The records of `<journal>.damaged`, the set-aside file. */
function asideRecords(journalFile: string): Record<string, unknown>[] {
  return readFileSync(`${journalFile}.damaged`, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
}
