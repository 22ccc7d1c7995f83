import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ReadTool } from "../../../plugins/coding-tools/read.tool.js";
import { makeContext, makeTempDir, run, textOf } from "../../support/tool-test-kit.js";

const numbered = (count: number, width = 0): string =>
  Array.from({ length: count }, (_, i) => `line ${i + 1}${"x".repeat(width)}`).join("\n") + "\n";

describe("ReadTool", () => {
  let dir: string;
  let cleanup: () => void;
  const tool = new ReadTool();

  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
  });
  afterEach(() => cleanup());

  it("returns a small file verbatim", async () => {
    writeFileSync(join(dir, "a.txt"), "alpha\nbeta\n");
    const result = await run(tool, { path: "a.txt" }, dir);
    expect(textOf(result)).toBe("alpha\nbeta");
    expect(result.details).toEqual({ path: "a.txt", startLine: 1, endLine: 2, totalLines: 2, truncated: false });
  });

  it("reads a window with offset and limit and says how to continue", async () => {
    writeFileSync(join(dir, "n.txt"), numbered(10));
    const result = await run(tool, { path: "n.txt", offset: 3, limit: 4 }, dir);
    expect(textOf(result)).toBe("line 3\nline 4\nline 5\nline 6\n\n[Showing lines 3-6 of 10. Use offset=7 to continue.]");
    expect(result.details).toMatchObject({ startLine: 3, endLine: 6, totalLines: 10, truncated: true, nextOffset: 7 });
  });

  it("stops at 2000 lines", async () => {
    writeFileSync(join(dir, "big.txt"), numbered(5000));
    const result = await run(tool, { path: "big.txt" }, dir);
    expect(result.details).toMatchObject({ endLine: 2000, totalLines: 5000, nextOffset: 2001 });
    expect(textOf(result)).toContain("line 2000\n\n[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]");
  });

  it("stops at 50 KiB on a line boundary", async () => {
    writeFileSync(join(dir, "wide.txt"), numbered(1000, 100));
    const result = await run(tool, { path: "wide.txt" }, dir);
    const text = textOf(result);
    const body = text.slice(0, text.indexOf("\n\n["));
    const { endLine, nextOffset } = result.details as { endLine: number; nextOffset: number };
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(50 * 1024);
    expect(endLine).toBeLessThan(1000);
    expect(body.endsWith(`line ${endLine}${"x".repeat(100)}`)).toBe(true);
    expect(nextOffset).toBe(endLine + 1);
  });

  it("cuts one over-long line without splitting a character", async () => {
    writeFileSync(join(dir, "long.txt"), "€".repeat(40_000) + "\nnext\n");
    const result = await run(tool, { path: "long.txt" }, dir);
    const text = textOf(result);
    const body = text.slice(0, text.indexOf("\n\n["));
    expect(body).toBe("€".repeat(Math.floor((50 * 1024) / 3)));
    expect(text).toContain("Line 1 is longer than 50 KiB");
    expect(result.details).toMatchObject({ truncated: true, nextOffset: 2 });
  });

  it("decodes multi-byte characters split across read chunks", async () => {
    // Line 2 starts at byte 65,534, so its first "€" (3 bytes) straddles the 64 KiB chunk boundary.
    writeFileSync(join(dir, "chunks.txt"), `${"a".repeat(65_533)}\n${"€".repeat(10)}\n`);
    const result = await run(tool, { path: "chunks.txt", offset: 2 }, dir);
    expect(textOf(result)).toBe("€".repeat(10));
  });

  it("hides CR of CRLF lines and handles a missing final newline", async () => {
    writeFileSync(join(dir, "crlf.txt"), "one\r\ntwo\r\nthree");
    const result = await run(tool, { path: "crlf.txt" }, dir);
    expect(textOf(result)).toBe("one\ntwo\nthree");
    expect(result.details).toMatchObject({ totalLines: 3 });
  });

  it("reports an empty file", async () => {
    writeFileSync(join(dir, "empty.txt"), "");
    expect(textOf(await run(tool, { path: "empty.txt" }, dir))).toBe("(empty file)");
  });

  it("accepts absolute paths outside cwd", async () => {
    const other = join(dir, "other");
    mkdirSync(join(dir, "sub"));
    mkdirSync(other);
    writeFileSync(join(other, "f.txt"), "outside\n");
    const result = await run(tool, { path: join(other, "f.txt") }, join(dir, "sub"));
    expect(textOf(result)).toBe("outside");
    expect(result.details).toMatchObject({ path: join(other, "f.txt") });
  });

  it("fails clearly for a missing file, a directory, a binary file and an offset past the end", async () => {
    mkdirSync(join(dir, "d"));
    writeFileSync(join(dir, "bin"), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    writeFileSync(join(dir, "short.txt"), "1\n2\n");
    await expect(run(tool, { path: "nope.txt" }, dir)).rejects.toThrow("nope.txt: no such file or directory.");
    await expect(run(tool, { path: "d" }, dir)).rejects.toThrow(/d is a directory/);
    await expect(run(tool, { path: "bin" }, dir)).rejects.toThrow(/binary file/);
    await expect(run(tool, { path: "short.txt", offset: 5 }, dir)).rejects.toThrow("offset 5 is beyond the end of short.txt (2 lines).");
    await expect(run(tool, { path: "short.txt", limit: 0 }, dir)).rejects.toThrow(/"limit"/);
    await expect(run(tool, {}, dir)).rejects.toThrow(/"path" must be a string/);
  });

  it("stops when the signal is aborted", async () => {
    writeFileSync(join(dir, "a.txt"), "a\n");
    const context = makeContext(dir);
    context.controller.abort();
    await expect(tool.execute({ path: "a.txt" }, context)).rejects.toThrow(/interrupted/);
  });
});
