import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CODING_TOOL_LIMITS } from "../../../plugins/coding-tools/coding-tools-limits.js";
import { GrepTool } from "../../../plugins/coding-tools/grep.tool.js";
import { rgMatches } from "../../support/ripgrep-oracle.js";
import { writeSearchTree } from "../../support/search-tree.js";
import { makeContext, makeTempDir, run, textOf } from "../../support/tool-test-kit.js";

// Every case runs twice: with ripgrep (installed by .ci/run) and with the Node search.
describe.each([
  ["ripgrep", undefined],
  ["the Node search", false],
] as const)("GrepTool with %s", (_backend, ripgrep) => {
  let dir: string;
  let cleanup: () => void;
  const tool = new GrepTool(ripgrep);

  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
    writeSearchTree(dir);
  });
  afterEach(() => cleanup());

  it("finds regex matches as path:line: text, skipping .gitignored node_modules, .git and binaries", async () => {
    const result = await run(tool, { pattern: "function\\s+\\w+\\(" }, dir);
    expect(textOf(result)).toBe("src/main.ts:1: export function main() {\nsrc/util/helper.ts:1: export function helper() {");
    expect(result.details).toMatchObject({ matches: 2, truncated: false });
  });

  it("honours ignoreCase and a glob filter", async () => {
    expect(textOf(await run(tool, { pattern: "todo" }, dir))).toBe("src/view.tsx:1: const View = () => null; // todo later");
    const all = await run(tool, { pattern: "todo", ignoreCase: true }, dir);
    expect(textOf(all).split("\n")).toEqual([
      "README.md:2: TODO: write docs",
      "src/util/helper.ts:2:   return 42; // TODO tidy",
      "src/view.tsx:1: const View = () => null; // todo later",
    ]);
    const ts = await run(tool, { pattern: "todo", ignoreCase: true, glob: "*.{ts,tsx}" }, dir);
    expect(textOf(ts).split("\n")).toHaveLength(2);
    const scoped = await run(tool, { pattern: "main", glob: "test/**" }, dir);
    expect(textOf(scoped)).toBe("test/main.spec.ts:1: import { main } from '../src/main';");
  });

  it("searches one file or a subdirectory given as path", async () => {
    expect(textOf(await run(tool, { pattern: "return", path: "src/main.ts" }, dir))).toBe("src/main.ts:2:   return helper();");
    expect(textOf(await run(tool, { pattern: "return", path: "src/util" }, dir))).toBe("src/util/helper.ts:2:   return 42; // TODO tidy");
  });

  it("bounds results by limit and cuts long lines", async () => {
    writeFileSync(join(dir, "many.txt"), Array.from({ length: 50 }, (_, i) => `hit ${i}`).join("\n"));
    writeFileSync(join(dir, "wide.txt"), `hit ${"w".repeat(2000)}\n`);
    const limited = await run(tool, { pattern: "^hit", path: "many.txt", limit: 5 }, dir);
    expect(textOf(limited)).toBe(
      "many.txt:1: hit 0\nmany.txt:2: hit 1\nmany.txt:3: hit 2\nmany.txt:4: hit 3\nmany.txt:5: hit 4\n\n" +
        "[Showing the first 5 matches; more exist. Narrow the pattern, path or glob, or raise limit.]",
    );
    expect(limited.details).toMatchObject({ matches: 5, truncated: true });
    const wide = textOf(await run(tool, { pattern: "^hit", path: "wide.txt" }, dir));
    expect(wide).toBe(`wide.txt:1: hit ${"w".repeat(496)}…`);
  });

  it("adds context lines, merging overlapping windows and separating blocks with --", async () => {
    writeFileSync(join(dir, "ctx.txt"), ["a", "hit 1", "b", "hit 2", "c", "d", "e", "f", "hit 3", "g"].join("\n") + "\n");
    const result = await run(tool, { pattern: "^hit", path: "ctx.txt", context: 1 }, dir);
    expect(textOf(result)).toBe(
      ["ctx.txt-1- a", "ctx.txt:2: hit 1", "ctx.txt-3- b", "ctx.txt:4: hit 2", "ctx.txt-5- c", "--", "ctx.txt-8- f", "ctx.txt:9: hit 3", "ctx.txt-10- g"].join("\n"),
    );
    expect(result.details).toEqual({ matches: 3, truncated: false });
    const plain = await run(tool, { pattern: "^hit", path: "ctx.txt" }, dir);
    expect(textOf(plain)).toBe("ctx.txt:2: hit 1\nctx.txt:4: hit 2\nctx.txt:9: hit 3");
  });

  it("accepts patterns only the older JavaScript syntax allows", async () => {
    writeFileSync(join(dir, "q.txt"), 'say "hi"\n');
    expect(textOf(await run(tool, { pattern: 'say \\"hi\\"', path: "q.txt" }, dir))).toBe('q.txt:1: say "hi"');
    expect(textOf(await run(tool, { pattern: "(a", literal: true }, dir))).toBe("No matches found.");
  });

  it("returns a non-error result when nothing matches", async () => {
    const result = await run(tool, { pattern: "no-such-text" }, dir);
    expect(textOf(result)).toBe("No matches found.");
    expect(result.isError).toBeUndefined();
  });

  it("skips a file over the size limit in a directory, also when only that file matches", async () => {
    writeFileSync(join(dir, "big.txt"), Buffer.alloc(CODING_TOOL_LIMITS.maxScanFileBytes + 1, "needle "));
    expect(textOf(await run(tool, { pattern: "needle" }, dir))).toBe("No matches found.");
    writeFileSync(join(dir, "small.txt"), "a needle\n");
    expect(textOf(await run(tool, { pattern: "needle" }, dir))).toBe("small.txt:1: a needle");
  });

  it("finds no match in a file with a NUL byte anywhere: past ripgrep's first read after a match, or in its first bytes", async () => {
    // ripgrep's walk prints "foo 1", then stops at the NUL with a note; the Node search calls the file binary.
    writeFileSync(join(dir, "a.txt"), Buffer.concat([Buffer.from(`foo 1\n${"x".repeat(70_000)}\n`), Buffer.from([0]), Buffer.from("\nfoo 2\n")]));
    writeFileSync(join(dir, "b.txt"), Buffer.concat([Buffer.from([0]), Buffer.from("foo 1\nfoo 2\n")]));
    expect(textOf(await run(tool, { pattern: "foo" }, dir))).toBe("No matches found.");
    writeFileSync(join(dir, "c.txt"), "foo 3\n");
    writeFileSync(join(dir, "d.txt"), "foo 4\n");
    expect(textOf(await run(tool, { pattern: "foo" }, dir))).toBe("c.txt:1: foo 3\nd.txt:1: foo 4");
    // Limit 1: the ordered search stops at the first file that counts.
    expect(textOf(await run(tool, { pattern: "foo", limit: 1 }, dir))).toBe(
      "c.txt:1: foo 3\n\n[Showing the first 1 matches; more exist. Narrow the pattern, path or glob, or raise limit.]",
    );
  });

  it("reads a file whose name holds an LF (rg's path ends at NUL, its text at LF), also when rg stops at its NUL with a note", async () => {
    mkdirSync(join(dir, "lf"));
    writeFileSync(join(dir, "lf", "a\nb.txt"), "foo 1\nbar\nfoo 2\n");
    writeFileSync(join(dir, "lf", "a"), "foo 0\n");
    writeFileSync(join(dir, "lf", "z\n"), "foo 3\n");
    // A name that reads like a binary note about the file before it, and a binary file whose name holds an LF.
    writeFileSync(join(dir, "lf", 'a: binary file matches (found "\\0" byte around offset 5)'), "foo 4\n");
    writeFileSync(join(dir, "lf", "bin\nary"), Buffer.concat([Buffer.from(`foo 5\n${"x".repeat(70_000)}\n`), Buffer.from([0]), Buffer.from("\nfoo 6\n")]));
    expect(textOf(await run(tool, { pattern: "foo", path: "lf" }, dir))).toBe(
      ["lf/a:1: foo 0", "lf/a\nb.txt:1: foo 1", "lf/a\nb.txt:3: foo 2", 'lf/a: binary file matches (found "\\0" byte around offset 5):1: foo 4', "lf/z\n:1: foo 3"].join("\n"),
    );
    expect(textOf(await run(tool, { pattern: "foo", path: "lf/a\nb.txt" }, dir))).toBe("lf/a\nb.txt:1: foo 1\nlf/a\nb.txt:3: foo 2");
  });

  it("stops at the limit in path order by code point, whatever a locale's order says", async () => {
    const names = ["B", "a-b", "a/b", "a.txt", "ab", "\u00e4", "z"];
    mkdirSync(join(dir, "sorted", "a"), { recursive: true });
    for (const name of names) writeFileSync(join(dir, "sorted", name), "hit 1\nhit 2\nhit 3\n");
    const expected = rgMatches(join(dir, "sorted"), ["hit"]).map((line) => `sorted/${line}`);
    expect(expected.slice(0, 7)).toEqual(["B:1", "B:2", "B:3", "a/b:1", "a/b:2", "a/b:3", "a-b:1"].map((at) => `sorted/${at}: hit ${at.slice(-1)}`));
    for (const limit of [7, 13]) {
      const note = "\n\n[Showing the first " + limit + " matches; more exist. Narrow the pattern, path or glob, or raise limit.]";
      expect(textOf(await run(tool, { pattern: "hit", path: "sorted", limit }, dir))).toBe(expected.slice(0, limit).join("\n") + note);
    }
  });

  it("fails clearly for an invalid regex, a missing path, a binary file and a bad glob", async () => {
    await expect(run(tool, { pattern: "(unclosed" }, dir)).rejects.toThrow(/^grep: invalid regular expression: /);
    await expect(run(tool, { pattern: "x", path: "missing" }, dir)).rejects.toThrow("missing: no such file or directory.");
    await expect(run(tool, { pattern: "f", path: "image.bin" }, dir)).rejects.toThrow(/binary file/);
    await expect(run(tool, { pattern: "x", glob: "{a" }, dir)).rejects.toThrow(/Invalid glob/);
  });

  it("stops when interrupted", async () => {
    const context = makeContext(dir);
    context.controller.abort();
    await expect(tool.execute({ pattern: "main" }, context)).rejects.toThrow(/interrupted/);
  });
});
