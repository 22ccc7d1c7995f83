import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EditTool } from "../../../plugins/coding-tools/edit.tool.js";
import { makeTempDir, run, textOf } from "../../support/tool-test-kit.js";

describe("EditTool", () => {
  let dir: string;
  let cleanup: () => void;
  const tool = new EditTool();
  const file = (): string => join(dir, "f.txt");
  const content = (): string => readFileSync(file(), "utf8");

  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
  });
  afterEach(() => cleanup());

  it("replaces one exact match and summarises the change", async () => {
    writeFileSync(file(), "a\nb\nc\nd\n");
    const result = await run(tool, { path: "f.txt", oldText: "c\n", newText: "C1\nC2\n" }, dir);
    expect(content()).toBe("a\nb\nC1\nC2\nd\n");
    expect(textOf(result)).toBe("Edited f.txt: replaced 1 occurrence (first at line 3).");
    expect(result.details).toEqual({
      path: "f.txt",
      replacements: 1,
      firstChangedLine: 3,
      linesRemoved: 1,
      linesAdded: 2,
      diff: "@@ line 3 @@\n-c\n+C1\n+C2",
    });
  });

  it("inserts replacement text literally ($ patterns are not special)", async () => {
    writeFileSync(file(), "price\n");
    await run(tool, { path: "f.txt", oldText: "price", newText: "$& $1 $$" }, dir);
    expect(content()).toBe("$& $1 $$\n");
  });

  it("refuses an ambiguous match and says how many there are", async () => {
    writeFileSync(file(), "x = 1\nx = 1\nx = 1\n");
    await expect(run(tool, { path: "f.txt", oldText: "x = 1", newText: "x = 2" }, dir)).rejects.toThrow(
      "edit: oldText matches 3 times in f.txt. Add surrounding context to make it unique, or set replaceAll: true.",
    );
    expect(content()).toBe("x = 1\nx = 1\nx = 1\n");
  });

  it("replaces every match with replaceAll", async () => {
    writeFileSync(file(), "x = 1\ny\nx = 1\n");
    const result = await run(tool, { path: "f.txt", oldText: "x = 1", newText: "x = 2", replaceAll: true }, dir);
    expect(content()).toBe("x = 2\ny\nx = 2\n");
    expect(result.details).toMatchObject({ replacements: 2, firstChangedLine: 1 });
  });

  it("reports a missing match, with a hint when only whitespace differs", async () => {
    writeFileSync(file(), "function f() {\n    return 1;\n}\n");
    await expect(run(tool, { path: "f.txt", oldText: "return 2;", newText: "x" }, dir)).rejects.toThrow(
      /oldText was not found in f.txt. Read the file again/,
    );
    await expect(run(tool, { path: "f.txt", oldText: "{\n  return 1;", newText: "x" }, dir)).rejects.toThrow(
      /would match if whitespace were ignored/,
    );
  });

  it("preserves CRLF line endings and a BOM", async () => {
    writeFileSync(file(), "\uFEFFone\r\ntwo\r\nthree\r\n");
    await run(tool, { path: "f.txt", oldText: "one\ntwo\n", newText: "uno\ndos\n" }, dir);
    expect(content()).toBe("\uFEFFuno\r\ndos\r\nthree\r\n");
  });

  it("matches LF text in a file with mixed line endings", async () => {
    writeFileSync(file(), "a\r\nb\nc\n");
    await run(tool, { path: "f.txt", oldText: "b\nc", newText: "B\nC" }, dir);
    expect(content()).toBe("a\r\nB\nC\n");
  });

  it("rejects bad input: identical texts, empty oldText, missing and binary files", async () => {
    writeFileSync(file(), "abc");
    writeFileSync(join(dir, "bin"), Buffer.from([1, 0, 2]));
    await expect(run(tool, { path: "f.txt", oldText: "a", newText: "a" }, dir)).rejects.toThrow(/identical/);
    await expect(run(tool, { path: "f.txt", oldText: "", newText: "a" }, dir)).rejects.toThrow(/"oldText" must not be empty/);
    await expect(run(tool, { path: "missing.txt", oldText: "a", newText: "b" }, dir)).rejects.toThrow(/no such file/);
    await expect(run(tool, { path: "bin", oldText: "a", newText: "b" }, dir)).rejects.toThrow(/binary/);
    expect(content()).toBe("abc");
    expect(readdirSync(dir).sort()).toEqual(["bin", "f.txt"]);
  });
});
