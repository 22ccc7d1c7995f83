import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { FindTool } from "../../../plugins/coding-tools/find.tool.js";
import { GrepTool } from "../../../plugins/coding-tools/grep.tool.js";
import { RipgrepProcess } from "../../../plugins/coding-tools/ripgrep-process.js";
import { rg, rgFiles, rgMatches, sortedPaths as sorted } from "../../support/ripgrep-oracle.js";
import { makeTempDir, run, textOf } from "../../support/tool-test-kit.js";

/**
 * ripgrep is the oracle: on one fixture with every kind of ignore rule, `find` and `grep` must
 * report exactly what `rg --hidden --glob '!.git'` reports, both when they run ripgrep and when
 * they run the Node search. `.ci/run` installs ripgrep, so a missing `rg` fails here.
 */
const FILES: Record<string, string | Buffer> = {
  ".gitignore": "build/\n*.log\n!keep.log\n/dist\nvendor/**/gen\n",
  ".ignore": "secret.txt\n*.secret\n",
  ".git/info/exclude": "local-only.txt\n",
  ".git/HEAD": "ref: refs/heads/main\nneedle in git\n",
  ".hidden/tool.ts": "const needle = 1;\n",
  ".env": "NEEDLE=2\n",
  "README.md": "# Fixture\nneedle at the top\n",
  "secret.txt": "needle secret\n",
  "local-only.txt": "needle local\n",
  "notes.log": "needle log\n",
  "keep.log": "needle kept\n",
  "build/out.js": "needle built\n",
  "build/nested/deep.md": "needle deep\n",
  "dist/bundle.js": "needle dist\n",
  "src/dist/keep.ts": "export const needle = 'not the root dist';\n",
  "src/main.ts": "export function main() {\n  return needle();\n}\n",
  "src/crlf.ts": "const a = 1;\r\nconst needle = 2;\r\n",
  "src/bom.ts": "\uFEFFneedle after a byte-order mark\n",
  "src/unicode.md": "naïve needle — ünïcödé\n",
  "src/.gitignore": "generated/\n!important.gen.ts\n*.gen.ts\n",
  "src/generated/api.ts": "needle generated\n",
  "src/a.gen.ts": "needle gen\n",
  "src/important.gen.ts": "needle important\n",
  "src/a.txt": "needle a.txt\n",
  "src/a/b.txt": "needle a/b\n",
  "vendor/lib/gen/x.js": "needle vendored gen\n",
  "vendor/lib/index.js": "module.exports = 'needle vendored';\n",
  "vendor/lib/README.md": "needle vendored readme\n",
  "docs/guide.md": "Needle, capitalised\n",
  // A directory holding only some kinds of ignore file: its `.ignore` still outranks the root's.
  "docs/.ignore": "draft.md\n!open.secret\n",
  "docs/draft.md": "needle draft\n",
  "docs/open.secret": "needle open\n",
  "docs/closed/shut.secret": "needle shut\n",
  "lib/.gitignore": "*.tmp\n!kept.tmp\n",
  "lib/.rgignore": "kept.tmp\n",
  "lib/kept.tmp": "needle kept tmp\n",
  "lib/main.ts": "needle lib\n",
  // A repository inside the tree: its own info/exclude applies below it.
  "nested/.git/HEAD": "ref: refs/heads/main\n",
  "nested/.git/info/exclude": "mine.txt\n",
  "nested/mine.txt": "needle mine\n",
  "nested/ours.txt": "needle ours\n",
  "bin/tool.bin": Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01]),
  "empty.txt": "",
};

function writeTree(dir: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  symlinkSync("src/main.ts", join(dir, "link-to-main.ts"));
  symlinkSync("src", join(dir, "link-to-src"));
}

describe("find and grep against ripgrep", () => {
  let repo: string;
  let plain: string;
  const cleanups: (() => void)[] = [];

  beforeAll(() => {
    expect(RipgrepProcess.locate()).toBeDefined();
    const a = makeTempDir("zi-oracle-repo-");
    const b = makeTempDir("zi-oracle-plain-");
    cleanups.push(a.cleanup, b.cleanup);
    repo = a.dir;
    plain = b.dir;
    writeTree(repo, FILES);
    execFileSync("git", ["init", "-q"], { cwd: repo }); // keeps the fixture's info/exclude and HEAD
    writeTree(plain, Object.fromEntries(Object.entries(FILES).filter(([path]) => !path.startsWith(".git/"))));
  });
  afterAll(() => cleanups.forEach((cleanup) => cleanup()));

  describe.each([
    ["ripgrep", undefined],
    ["the Node search", false],
  ] as const)("with %s", (_backend, ripgrep) => {
    const find = new FindTool(ripgrep);
    const grep = new GrepTool(ripgrep);
    const lines = (text: string): string[] => (text.startsWith("No ") ? [] : text.split("\n"));

    it("find lists exactly the files rg --files lists, in a repository and outside one", async () => {
      expect(lines(textOf(await run(find, { pattern: "*", limit: 5000 }, repo)))).toEqual(rgFiles(repo));
      expect(lines(textOf(await run(find, { pattern: "*", limit: 5000 }, plain)))).toEqual(rgFiles(plain, ["--no-require-git"]));
      const markdown = rg(repo, ["--files"]).filter((path) => path.endsWith(".md"));
      expect(lines(textOf(await run(find, { pattern: "*.md" }, repo)))).toEqual(sorted(markdown));
    });

    it("grep returns exactly rg's matches, for several patterns and options", async () => {
      expect(lines(textOf(await run(grep, { pattern: "needle", limit: 2000 }, repo)))).toEqual(rgMatches(repo, ["needle"]));
      expect(lines(textOf(await run(grep, { pattern: "needle", ignoreCase: true, limit: 2000 }, repo)))).toEqual(rgMatches(repo, ["-i", "needle"]));
      expect(lines(textOf(await run(grep, { pattern: "needle\\W*$", limit: 2000 }, repo)))).toEqual(rgMatches(repo, ["needle\\W*$"]));
      expect(lines(textOf(await run(grep, { pattern: "^const", limit: 2000 }, repo)))).toEqual(rgMatches(repo, ["^const"]));
      expect(lines(textOf(await run(grep, { pattern: "needle", glob: "*.md", limit: 2000 }, repo)))).toEqual(
        rgMatches(repo, ["needle"]).filter((line) => /^[^:]*\.md:/.test(line)),
      );
      expect(lines(textOf(await run(grep, { pattern: "needle", limit: 2000 }, plain)))).toEqual(rgMatches(plain, ["--no-require-git", "needle"]));
      expect(lines(textOf(await run(grep, { pattern: "no such text anywhere" }, repo)))).toEqual([]);
    });

    it("grep under a limit shows rg's first matches in path order (the search stopped early)", async () => {
      const all = rgMatches(repo, ["needle"]);
      expect(all.length).toBeGreaterThan(10);
      for (const limit of [10, 1]) {
        const shown = lines(textOf(await run(grep, { pattern: "needle", limit }, repo))).filter((line) => !line.startsWith("[") && line !== "");
        expect([limit, shown]).toEqual([limit, all.slice(0, limit)]);
      }
    });

    it("an explicit path inside an ignored directory is searched, under the rules below it", async () => {
      expect(lines(textOf(await run(find, { pattern: "*", path: "build" }, repo)))).toEqual(rgFiles(repo, [], "build"));
      expect(lines(textOf(await run(grep, { pattern: "needle", path: "build" }, repo)))).toEqual(rgMatches(repo, ["needle"], "build"));
      expect(lines(textOf(await run(grep, { pattern: "needle", path: "src/generated" }, repo)))).toEqual(rgMatches(repo, ["needle"], "src/generated"));
      expect(lines(textOf(await run(find, { pattern: "*", path: "vendor/lib/gen" }, repo)))).toEqual(rgFiles(repo, [], "vendor/lib/gen"));
      const src = join(repo, "src");
      expect(lines(textOf(await run(find, { pattern: "*", path: "." }, src)))).toEqual(rgFiles(src));
    });
  });
});
