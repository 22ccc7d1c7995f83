import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { RipgrepProcess } from "../../../plugins/coding-tools/ripgrep-process.js";
import { RipgrepSearch } from "../../../plugins/coding-tools/ripgrep-search.js";
import type { ContentMatch, ContentQuery } from "../../../plugins/coding-tools/search-backend.js";
import { SearchTreeLayout } from "../../../plugins/coding-tools/search-tree-layout.js";
import { GlobMatcher } from "../../../plugins/coding-tools/glob-matcher.js";
import { makeTempDir, waitFor } from "../../support/tool-test-kit.js";

/**
 * grep's search split into parts (one `rg --sort path` per consecutive run of the tree, read in turn)
 * must give exactly what one walk gives, which the oracle spec checks against rg itself: every match,
 * in the same order, the same first matches under a limit. Real rg on a tree with nested ignore
 * files, hidden and binary files, names that rg's globs would read as syntax, and heavy directories
 * the split opens.
 */
const NAMES = ["a*b", "[x]", "{y,z}", "back\\slash", "q?", "!bang", "sp ace"];

function writeTree(root: string): void {
  const write = (path: string, text: string | Buffer): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(".gitignore", "build/\n*.log\n");
  write("README.md", "needle at the top\n");
  write("notes.log", "needle ignored\n");
  write(".hidden/h.ts", "const needle = 1;\n");
  for (let i = 0; i < 300; i++) write(`build/b${i}.js`, "needle built\n");
  for (const [index, name] of NAMES.entries()) {
    for (let i = 0; i < 20; i++) write(`${name}/n${i}.txt`, i % 3 === 0 ? `needle ${index} ${i}\nsecond needle\n` : "nothing\n");
  }
  for (const top of ["lib", "src"]) {
    for (const sub of ["m0", "m1", "m2"]) {
      for (let i = 0; i < 40; i++) write(`${top}/${sub}/f${i}.ts`, i % 4 === 0 ? `export function needle${i}() {}\n// needle again\n` : "export const other = 1;\n");
    }
  }
  write("src/.gitignore", "gen/\n");
  for (let i = 0; i < 200; i++) write(`src/gen/g${i}.ts`, "needle generated\n");
  write("src/m1/bin.dat", Buffer.from("needle\u0000binary"));
  write("zz/last.txt", "needle last\n");
}

describe("ripgrep's search split into parts", () => {
  let root: string;
  let cleanup: () => void;
  let rg: string;

  beforeAll(async () => {
    rg = RipgrepProcess.locate()!;
    expect(rg).toBeDefined();
    ({ dir: root, cleanup } = makeTempDir("zi-rg-parts-"));
    writeTree(root);
    execFileSync("git", ["init", "-q"], { cwd: root });
    await SearchTreeLayout.weigh(root);
  });
  afterAll(() => cleanup());

  const query = (pattern: string, more: Partial<ContentQuery> = {}): ContentQuery => ({
    root,
    rootIsFile: false,
    pattern,
    literal: false,
    ignoreCase: false,
    perFileLimit: 1001,
    signal: new AbortController().signal,
    ...more,
  });
  async function search(count: number, q: ContentQuery, limit = Infinity): Promise<ContentMatch[]> {
    const found: ContentMatch[] = [];
    await new RipgrepSearch(rg, { count, minFiles: 0 }).searchContents(q, (match) => {
      found.push(match);
      return found.length < limit;
    });
    return found;
  }

  it("is split here: the tree is weighed into as many parts as asked, naming the glob-like names", () => {
    const layout = SearchTreeLayout.known(root)!;
    for (const count of [2, 3, 4]) expect(layout.split(count, 0)).toHaveLength(count);
    const named = new Set(layout.split(4, 0)!.flatMap((part) => part.excluded.map((path) => path.split("/")[0])));
    for (const name of NAMES) expect([name, named.has(name)]).toEqual([name, true]);
  });

  it("finds exactly what one walk finds, in the same order, whatever the number of parts", async () => {
    for (const [pattern, more] of [
      ["needle", {}],
      ["NEEDLE", { ignoreCase: true }],
      ["^export function needle\\d+", {}],
      ["no such text anywhere", {}],
      ["needle", { glob: new GlobMatcher("*.txt") }],
      ["needle", { admits: (relative: string) => !relative.startsWith("src/m1/") && !relative.startsWith("a*b/") }],
    ] as const) {
      const one = await search(1, query(pattern, more));
      if (pattern.startsWith("no such")) expect(one).toEqual([]);
      else expect(one.length).toBeGreaterThan(20);
      for (const count of [2, 3, 4]) expect([pattern, count, await search(count, query(pattern, more))]).toEqual([pattern, count, one]);
    }
  });

  it("gives the same first matches when the tool stops it early, at every limit", async () => {
    const all = await search(1, query("needle"));
    for (const limit of [1, 7, 40, 90, all.length - 1]) {
      for (const count of [2, 4]) expect([limit, count, await search(count, query("needle"), limit)]).toEqual([limit, count, all.slice(0, limit)]);
    }
  });

  it("shows an entry made after the tree was weighed once, in its place", async () => {
    writeFileSync(join(root, "lib/m1/new.ts"), "needle new in a part's run\n");
    mkdirSync(join(root, "mid"));
    writeFileSync(join(root, "mid/new.txt"), "needle new between parts\n");
    const one = await search(1, query("needle new"));
    expect(one.map((match) => match.relative)).toEqual(["lib/m1/new.ts", "mid/new.txt"]);
    for (const count of [2, 3, 4]) expect(await search(count, query("needle new"))).toEqual(one);
  });

  it("leaves no rg running once the tool has enough", async () => {
    const marker = "needle|unlikely_marker_for_this_test";
    const found = await search(4, query(marker), 3);
    expect(found).toHaveLength(3);
    const running = (): boolean =>
      readdirSync("/proc")
        .filter((pid) => /^\d+$/.test(pid))
        .some((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("unlikely_marker_for_this_test");
          } catch {
            return false;
          }
        });
    expect(await waitFor(() => !running())).toBe(true);
  });
});
