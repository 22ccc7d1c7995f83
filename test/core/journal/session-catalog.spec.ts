import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionCatalog } from "../../../core/journal/session-catalog.js";
import { SessionJournal } from "../../../core/journal/session-journal.js";
import { assistantMessage, tempDir, userMessage } from "../../fixtures/journal/journal-fixtures.js";

describe("SessionCatalog (session.list)", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
  });
  afterEach(() => cleanup());

  const journal = (id: string, cwd: string, prompts: string[]): SessionJournal => {
    const created = SessionJournal.create(dir, id, cwd, { fsync: false });
    for (const prompt of prompts) {
      created.append({ type: "message", message: userMessage(prompt) });
      created.append({ type: "message", message: assistantMessage(`re: ${prompt}`) });
    }
    return created;
  };

  it("lists each journal with its id, path, cwd, title from the first prompt, times and message count", async () => {
    const a = journal("a", "/p/one", ["  first line of A\nsecond line", "again"]);
    journal("b", "/p/two", []).close();
    const page = await new SessionCatalog(dir).list(undefined, 0, 10);
    expect(page).toMatchObject({ start: 0, total: 2, nextStart: null });
    const item = page.sessions.find((session) => session.id === "a")!;
    expect(item).toEqual({
      id: "a",
      path: a.file,
      cwd: "/p/one",
      title: "first line of A",
      created: expect.stringMatching(/^\d{4}-/),
      modified: new Date(statSync(a.file!).mtimeMs).toISOString(),
      messageCount: 4,
    });
    expect(page.sessions.find((session) => session.id === "b")).toMatchObject({ title: null, messageCount: 0 });
    a.close();
  });

  it("filters by cwd, pages newest first, and follows a journal that grew", async () => {
    const catalog = new SessionCatalog(dir);
    const journals = ["x", "y", "z"].map((id) => journal(id, id === "z" ? "/elsewhere" : "/here", ["hi"]));
    const here = await catalog.list("/here", 0, 1);
    expect(here).toMatchObject({ total: 2, nextStart: 1 });
    const second = await catalog.list("/here", 1, 1);
    expect(second.nextStart).toBeNull();
    expect([here.sessions[0]!.id, second.sessions[0]!.id].sort()).toEqual(["x", "y"]);
    journals[0]!.append({ type: "message", message: userMessage("more") });
    const grown = await catalog.list(undefined, 0, 10);
    expect(grown.sessions.find((session) => session.id === "x")!.messageCount).toBe(3);
    expect(grown.sessions[0]!.id).toBe("x"); // modified last
    for (const each of journals) each.close();
  });

  it("keeps an index under the sessions directory (0600) and reads a known journal only from where it stopped", async () => {
    const catalog = new SessionCatalog(dir);
    const kept = journal("k", "/p", ["one"]);
    await catalog.list(undefined, 0, 10);
    const indexFile = join(dir, ".index.json");
    expect(statSync(indexFile).mode & 0o777).toBe(0o600);
    // The whole file was read up to its last line; after an append only the new line is read.
    const before = JSON.parse(readFileSync(indexFile, "utf8")) as { records: { scanned: number; size: number }[] };
    expect(before.records[0]!.scanned).toBe(before.records[0]!.size);
    kept.append({ type: "message", message: userMessage("two") });
    expect((await catalog.list(undefined, 0, 10)).sessions[0]!.messageCount).toBe(3);
    kept.close();
  });

  it("ignores what is not a journal: other files, a FIFO, a directory, a file without a header", async () => {
    journal("real", "/p", ["hello"]).close();
    writeFileSync(join(dir, "notes.txt"), "hello");
    writeFileSync(join(dir, "2026_fake.jsonl"), '{"type":"message"}\n');
    execFileSync("mkfifo", [join(dir, "2026_fifo.jsonl")]);
    mkdirSync(join(dir, "2026_dir.jsonl"));
    appendFileSync(join(dir, "2026_torn.jsonl"), '{"type":"sess');
    const page = await new SessionCatalog(dir).list(undefined, 0, 10);
    expect(page.sessions.map((session) => session.id)).toEqual(["real"]);
  });

  it("finds a session's journal by id: one named for it from its header alone, any other through the index", async () => {
    const named = journal("named", "/p/one", ["hello"]);
    named.close();
    const catalog = new SessionCatalog(dir);
    expect(await catalog.find("named")).toEqual({ path: named.file, cwd: "/p/one" });
    // Only that journal's header was read: nothing was indexed.
    expect(existsSync(join(dir, ".index.json"))).toBe(false);
    // A journal not named for its session (copied by hand) is found by its header, through the index.
    const copied = journal("original", "/p/two", []);
    copied.close();
    renameSync(copied.file!, join(dir, "2026_copy.jsonl"));
    expect(await catalog.find("original")).toEqual({ path: join(dir, "2026_copy.jsonl"), cwd: "/p/two" });
    expect(existsSync(join(dir, ".index.json"))).toBe(true);
    // A name is no proof: the header must say the id. A FIFO or a directory named for an id is not read.
    expect(await catalog.find("copy")).toBeUndefined();
    execFileSync("mkfifo", [join(dir, "2026_fifo.jsonl")]);
    mkdirSync(join(dir, "2026_dir.jsonl"));
    expect(await catalog.find("fifo")).toBeUndefined();
    expect(await catalog.find("dir")).toBeUndefined();
    expect(await catalog.find("nobody")).toBeUndefined();
  });

  it("an absent directory lists nothing", async () => {
    expect(await new SessionCatalog(join(dir, "none")).list(undefined, 0, 10)).toEqual({ start: 0, total: 0, nextStart: null, sessions: [] });
  });
});
