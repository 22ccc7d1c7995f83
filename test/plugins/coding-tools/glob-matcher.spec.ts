import { describe, expect, it } from "@jest/globals";
import { GlobMatcher } from "../../../plugins/coding-tools/glob-matcher.js";

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

  it("rejects an unclosed brace", () => {
    expect(() => new GlobMatcher("*.{ts,js")).toThrow(/unclosed/);
  });
});
