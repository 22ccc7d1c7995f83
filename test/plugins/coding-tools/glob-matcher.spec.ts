import { describe, expect, it } from "@jest/globals";
import { GlobMatcher } from "../../../plugins/coding-tools/glob-matcher.js";
import { comparePaths } from "../../../plugins/coding-tools/search-backend.js";

const matches = (pattern: string, path: string): boolean => new GlobMatcher(pattern).matches(path);

describe("GlobMatcher", () => {
  it("matches a slash-free pattern against the base name at any depth", () => {
    expect(matches("*.ts", "a.ts")).toBe(true);
    expect(matches("*.ts", "src/deep/a.ts")).toBe(true);
    expect(matches("*.ts", "src/a.tsx")).toBe(false);
    expect(matches("file?.txt", "x/file1.txt")).toBe(true);
    expect(matches("file?.txt", "x/file12.txt")).toBe(false);
  });

  it("keeps * within one segment and lets ** span segments", () => {
    expect(matches("src/*.ts", "src/a.ts")).toBe(true);
    expect(matches("src/*.ts", "src/x/a.ts")).toBe(false);
    expect(matches("src/**/*.ts", "src/a.ts")).toBe(true);
    expect(matches("src/**/*.ts", "src/x/y/a.ts")).toBe(true);
    expect(matches("src/**", "src/x/y/a.ts")).toBe(true);
    expect(matches("**/test/*.ts", "test/a.ts")).toBe(true);
    expect(matches("**/test/*.ts", "a/test/a.ts")).toBe(true);
    expect(matches("./src/*.ts", "src/a.ts")).toBe(true);
  });

  it("supports braces (nested), classes and literal regex characters", () => {
    expect(matches("*.{ts,tsx}", "a.tsx")).toBe(true);
    expect(matches("*.{ts,tsx}", "a.js")).toBe(false);
    expect(matches("{src,test}/**/*.{ts,{m,c}js}", "test/x/a.mjs")).toBe(true);
    expect(matches("[ab].txt", "b.txt")).toBe(true);
    expect(matches("[!ab].txt", "b.txt")).toBe(false);
    expect(matches("[!ab].txt", "c.txt")).toBe(true);
    expect(matches("a+b(1).txt", "a+b(1).txt")).toBe(true);
    expect(matches("a.txt", "abtxt")).toBe(false);
  });

  it("matches many-star globs (run by the automaton) exactly as their regular expressions do", () => {
    const globs = ["*a*b*c*", "src/**/*x*y*.ts", "{*a*,*b*}*c", "**/*.{ts,{m,c}js}*?*", "[!a]*[bc]*?*d"];
    const paths = ["abc", "xaybzc.ts", "src/q/xxyy.ts", "src/xy.ts", "bac", "acb", "d/e/f.mjsq", "zbbd", "abd", "", "a/b/c"];
    for (const glob of globs) {
      // The regular expression the glob stands for (as the matcher builds it for globs with few stars).
      const source = glob
        .replace(/\*\*\//g, "\u0000")
        .replace(/\*\*/g, "\u0001")
        .replace(/\*/g, "[^/]*")
        .replace(/\?/g, "[^/]")
        .replace(/\[!/g, "[^")
        .replace(/\./g, "\\.")
        .replace(/\{/g, "(?:")
        .replace(/\}/g, ")")
        .replace(/,/g, "|")
        .replace(/\u0000/g, "(?:.*/)?")
        .replace(/\u0001/g, ".*");
      const regex = new RegExp(`^${source}$`);
      for (const path of paths) {
        const subject = glob.includes("/") ? path : path.slice(path.lastIndexOf("/") + 1);
        expect([glob, path, matches(glob, path)]).toEqual([glob, path, regex.test(subject)]);
      }
    }
  });

  it("matches a glob of many stars against a long name without backtracking (this froze Zi before)", () => {
    const glob = `${"*a".repeat(40)}*b`;
    expect(matches(glob, "a".repeat(5000))).toBe(false);
    expect(matches(glob, `${"a".repeat(5000)}b`)).toBe(true);
  });

  it("rejects an unclosed brace", () => {
    expect(() => new GlobMatcher("*.{ts,js")).toThrow(/unclosed/);
  });
});

describe("comparePaths", () => {
  it("is ripgrep's --sort path order: '/' first, then code points (an astral character after U+FFFD)", () => {
    const paths = ["a.txt", "a/b", "a-b/c", "\uFFFD", "\u{1F600}", "b", "a/b/c"];
    expect([...paths].sort(comparePaths)).toEqual(["a/b", "a/b/c", "a-b/c", "a.txt", "b", "\uFFFD", "\u{1F600}"]);
  });
});
