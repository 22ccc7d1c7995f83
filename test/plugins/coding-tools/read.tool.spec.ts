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

describe("ReadTool on images", () => {
  let dir: string;
  let cleanup: () => void;
  const tool = new ReadTool();
  // A real 1x1 PNG; copies with another width in the IHDR header stand in for large images.
  const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
  const withWidth = (width: number): Buffer => {
    const copy = Buffer.from(PNG);
    copy.writeUInt32BE(width, 16);
    return copy;
  };
  const vision = (cwd: string) => ({ ...makeContext(cwd), model: { provider: "p", id: "vision", input: ["text", "image"] as const } });
  const textOnly = (cwd: string) => ({ ...makeContext(cwd), model: { provider: "p", id: "plain", input: ["text"] as const } });

  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
  });
  afterEach(() => cleanup());

  it("returns an image part, recognised by content, for a model that accepts images", async () => {
    writeFileSync(join(dir, "shot.dat"), PNG);
    const result = await tool.execute({ path: "shot.dat" }, vision(dir));
    expect(result.content).toEqual([
      { type: "text", text: "Read image shot.dat (PNG, 1x1 pixels, 0.1 KiB)." },
      { type: "image", data: PNG.toString("base64"), mimeType: "image/png" },
    ]);
    expect(result.details).toMatchObject({ path: "shot.dat", mimeType: "image/png", width: 1, height: 1, image: true });
  });

  it("gives a text-only model a note instead", async () => {
    writeFileSync(join(dir, "a.png"), PNG);
    const result = await tool.execute({ path: "a.png" }, textOnly(dir));
    expect(result.content).toEqual([
      { type: "text", text: "a.png is an image (PNG, 1x1 pixels, 0.1 KiB). The current model (p/plain) does not accept images, so it cannot be shown." },
    ]);
  });

  it("recognises GIF and JPEG headers, and refuses images beyond the bounds with the way out", async () => {
    const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.from([3, 0, 2, 0]), Buffer.alloc(16)]);
    writeFileSync(join(dir, "g"), gif);
    expect((await tool.execute({ path: "g" }, vision(dir))).details).toMatchObject({ mimeType: "image/gif", width: 3, height: 2 });
    const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0];
    const jpeg = Buffer.from([0xff, 0xd8, ...app0, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x02, 0x00, 0x05, 0x03, ...Array(12).fill(0)]);
    writeFileSync(join(dir, "j"), jpeg);
    expect((await tool.execute({ path: "j" }, vision(dir))).details).toMatchObject({ mimeType: "image/jpeg", width: 5, height: 2 });
    writeFileSync(join(dir, "wide.png"), withWidth(9000));
    await expect(tool.execute({ path: "wide.png" }, vision(dir))).rejects.toThrow(
      /^wide\.png is an image \(PNG, 9000x1 pixels, 0\.1 KiB\) larger than 8000 pixels per side\. Make a smaller copy/,
    );
    writeFileSync(join(dir, "big.png"), Buffer.concat([PNG, Buffer.alloc(4_000_000)]));
    await expect(tool.execute({ path: "big.png" }, vision(dir))).rejects.toThrow(/larger than the 3\.58 MiB read accepts/);
  });

  it("keeps refusing other binary files", async () => {
    writeFileSync(join(dir, "x.png"), Buffer.from([0x00, 0x01, 0x02]));
    await expect(tool.execute({ path: "x.png" }, vision(dir))).rejects.toThrow("x.png is a binary file; read shows text files only.");
  });
});
