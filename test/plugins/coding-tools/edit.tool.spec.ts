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
      edits: 1,
      replacements: 1,
      firstChangedLine: 3,
      linesRemoved: 1,
      linesAdded: 2,
      diff: "--- f.txt\n+++ f.txt\n@@ -1,4 +1,5 @@\n a\n b\n-c\n+C1\n+C2\n d",
    });
  });

  it("applies several edits in one call, each located in the original text", async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    writeFileSync(file(), `${lines.join("\n")}\n`);
    const result = await run(
      tool,
      {
        path: "f.txt",
        edits: [
          { oldText: "line 15\n", newText: "fifteen\n" },
          { oldText: "line 2\n", newText: "two\nline 2.5\n" },
        ],
      },
      dir,
    );
    expect(content()).toBe(`${lines.map((l) => (l === "line 2" ? "two\nline 2.5" : l === "line 15" ? "fifteen" : l)).join("\n")}\n`);
    expect(textOf(result)).toBe("Edited f.txt: applied 2 edits, replaced 2 occurrences (first at line 2).");
    expect(result.details).toMatchObject({ edits: 2, replacements: 2, firstChangedLine: 2, linesRemoved: 2, linesAdded: 3 });
    const diff = (result.details as { diff: string }).diff;
    expect(diff).toContain("@@ -1,5 +1,6 @@\n line 1\n-line 2\n+two\n+line 2.5\n line 3");
    expect(diff).toContain("@@ -12,7 +13,7 @@\n line 12\n line 13\n line 14\n-line 15\n+fifteen\n line 16");
  });

  it("refuses overlapping edits and names the failing edit, changing nothing", async () => {
    writeFileSync(file(), "alpha beta gamma\nx = 1\nx = 1\n");
    await expect(
      run(tool, { path: "f.txt", edits: [{ oldText: "alpha beta", newText: "A" }, { oldText: "beta gamma", newText: "B" }] }, dir),
    ).rejects.toThrow("edit: edits[1] overlaps edits[0] in f.txt (both change line 1). Merge them into one edit; nothing was changed.");
    await expect(
      run(tool, { path: "f.txt", edits: [{ oldText: "alpha", newText: "A" }, { oldText: "missing", newText: "B" }] }, dir),
    ).rejects.toThrow(/^edit: edits\[1\]: oldText was not found in f.txt\./);
    await expect(
      run(tool, { path: "f.txt", edits: [{ oldText: "alpha", newText: "A" }, { oldText: "x = 1", newText: "x = 2" }] }, dir),
    ).rejects.toThrow("edit: edits[1]: oldText matches 2 times in f.txt. Add surrounding context to make it unique, or set replaceAll: true.");
    expect(content()).toBe("alpha beta gamma\nx = 1\nx = 1\n");
    const all = await run(tool, { path: "f.txt", edits: [{ oldText: "alpha", newText: "A" }, { oldText: "x = 1", newText: "x = 2", replaceAll: true }] }, dir);
    expect(content()).toBe("A beta gamma\nx = 2\nx = 2\n");
    expect(all.details).toMatchObject({ edits: 2, replacements: 3 });
  });

  it("bounds edits to 1..64 and refuses mixing both forms", async () => {
    writeFileSync(file(), "a\n");
    await expect(run(tool, { path: "f.txt", edits: [] }, dir)).rejects.toThrow(/1 to 64 edits/);
    const many = Array.from({ length: 65 }, (_, i) => ({ oldText: `k${i}`, newText: "v" }));
    await expect(run(tool, { path: "f.txt", edits: many }, dir)).rejects.toThrow(/1 to 64 edits/);
    await expect(run(tool, { path: "f.txt", edits: [{ oldText: "a", newText: "b" }], oldText: "a", newText: "b" }, dir)).rejects.toThrow(/not both/);
    await expect(run(tool, { path: "f.txt" }, dir)).rejects.toThrow(/give edits/);
  });

  it("matches tolerantly only when unique: trailing whitespace, CRLF, typographic quotes, dashes and spaces", async () => {
    writeFileSync(file(), "const s = \u201Chello\u201D;   \r\nconst t = \u2018a\u2019 \u2014 b\u00A0c;\r\nkeep \u201Cquotes\u201D here\r\n");
    const result = await run(tool, { path: "f.txt", oldText: 'const s = "hello";\nconst t = \'a\' - b c;', newText: "const s = 1;\nconst t = 2;" }, dir);
    expect(content()).toBe("const s = 1;\r\nconst t = 2;\r\nkeep \u201Cquotes\u201D here\r\n");
    expect(textOf(result)).toMatch(/matched only after ignoring trailing whitespace/);
    writeFileSync(file(), "a \u2014 b\na - b\n");
    await expect(run(tool, { path: "f.txt", oldText: "a \u2013 b", newText: "x" }, dir)).rejects.toThrow(/it matches 2 times/);
  });

  it("accepts the shapes models send: edits as a JSON string, one edit object, snake_case names", async () => {
    writeFileSync(file(), "one two three\n");
    const repaired = tool.prepareArguments({ path: "f.txt", edits: JSON.stringify([{ old_text: "one", new_text: "1" }]) });
    expect(repaired).toEqual({ path: "f.txt", edits: [{ oldText: "one", newText: "1" }] });
    await run(tool, repaired as Record<string, unknown>, dir);
    await run(tool, { path: "f.txt", edits: { oldText: "two", newText: "2" } }, dir);
    await run(tool, { path: "f.txt", old_string: "three", new_string: "3" }, dir);
    expect(content()).toBe("1 2 3\n");
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
