import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { renameSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../fixtures/journal/journal-fixtures.js";

// The catalog's own node:fs/promises with a readdir that counts its calls (and otherwise is the real one).
const actual = await import("node:fs/promises");
const readdirCalls: string[] = [];
jest.unstable_mockModule("node:fs/promises", () => ({
  ...actual,
  readdir: (path: string) => {
    readdirCalls.push(path);
    return actual.readdir(path);
  },
}));
const { SessionCatalog } = await import("../../../core/journal/session-catalog.js");
const { SessionJournal } = await import("../../../core/journal/session-journal.js");

describe("SessionCatalog reads the sessions directory once per call", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    readdirCalls.length = 0;
  });
  afterEach(() => cleanup());

  const journal = (id: string, name?: string): string => {
    const created = SessionJournal.create(dir, id, "/p", { fsync: false });
    created.close();
    if (name === undefined) return created.file!;
    renameSync(created.file!, join(dir, name));
    return join(dir, name);
  };

  it("find by a journal named for the id: one listing, and it is found", async () => {
    const file = journal("named");
    expect(await new SessionCatalog(dir).find("named")).toEqual({ path: file, cwd: "/p" });
    expect(readdirCalls).toEqual([dir]);
  });

  it("find through the index (a journal not named for its session): the same one listing serves both", async () => {
    journal("other");
    const copy = journal("original", "2026_copy.jsonl");
    expect(await new SessionCatalog(dir).find("original")).toEqual({ path: copy, cwd: "/p" });
    expect(readdirCalls).toEqual([dir]);
  });

  it("find of an id no journal has: one listing", async () => {
    journal("someone");
    expect(await new SessionCatalog(dir).find("nobody")).toBeUndefined();
    expect(readdirCalls).toEqual([dir]);
  });

  it("list: one listing", async () => {
    journal("a");
    expect((await new SessionCatalog(dir).list(undefined, 0, 10)).total).toBe(1);
    expect(readdirCalls).toEqual([dir]);
  });
});
