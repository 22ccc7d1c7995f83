import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeText, readBoundedFile, readBoundedFileSync, type BoundedRead } from "../../../core/config/bounded-file-reader.js";

type Reader = (path: string, maxBytes: number) => Promise<BoundedRead>;
const readers: [string, Reader][] = [
  ["readBoundedFile", readBoundedFile],
  ["readBoundedFileSync", async (path, maxBytes) => readBoundedFileSync(path, maxBytes)],
];

describe.each(readers)("%s", (_name, read) => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "zi-bounded-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a regular file whole, with its permission bits", async () => {
    const file = join(dir, "a.json");
    writeFileSync(file, "x".repeat(200_000));
    chmodSync(file, 0o640);
    const result = await read(file, 1 << 20);
    expect(result).toMatchObject({ status: "ok", mode: expect.any(Number) });
    if (result.status !== "ok") throw new Error("unreachable");
    expect(result.bytes.toString()).toBe("x".repeat(200_000));
    expect(result.mode & 0o777).toBe(0o640);
  });

  it("reads an empty file and follows a symlink to a regular file", async () => {
    writeFileSync(join(dir, "empty"), "");
    symlinkSync(join(dir, "empty"), join(dir, "link"));
    expect(await read(join(dir, "link"), 10)).toMatchObject({ status: "ok", bytes: Buffer.alloc(0) });
  });

  it("says missing for a file that does not exist", async () => {
    expect(await read(join(dir, "nope"), 10)).toEqual({ status: "missing" });
  });

  it("refuses a file over the bound, by one byte", async () => {
    writeFileSync(join(dir, "exact"), "12345");
    writeFileSync(join(dir, "over"), "123456");
    expect(await read(join(dir, "exact"), 5)).toMatchObject({ status: "ok" });
    expect(await read(join(dir, "over"), 5)).toEqual({ status: "refused", reason: "is larger than 5 bytes" });
  });

  it("refuses a FIFO without waiting for a writer, and a symlink to /dev/zero without reading it", async () => {
    execFileSync("mkfifo", [join(dir, "fifo")]);
    symlinkSync("/dev/zero", join(dir, "zero"));
    expect(await read(join(dir, "fifo"), 1 << 20)).toEqual({ status: "refused", reason: "is a FIFO, not a regular file" });
    expect(await read(join(dir, "zero"), 1 << 20)).toEqual({ status: "refused", reason: "is a character device, not a regular file" });
    expect(await read(dir, 1 << 20)).toEqual({ status: "refused", reason: "is a directory, not a regular file" });
  });

  it("reports an unreadable file by its error code", async () => {
    if (process.getuid?.() === 0) return; // root reads a 0000 file anyway
    const file = join(dir, "locked");
    writeFileSync(file, "{}");
    chmodSync(file, 0o000);
    expect(await read(file, 10)).toEqual({ status: "refused", reason: "cannot be read (EACCES)" });
  });
});

describe("decodeText", () => {
  it("drops a leading byte-order mark and nothing else", () => {
    expect(decodeText(Buffer.from("\uFEFF{\"a\":1}"))).toBe('{"a":1}');
    expect(decodeText(Buffer.from("a\uFEFF"))).toBe("a\uFEFF");
  });
});
