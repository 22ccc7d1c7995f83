import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFilePrefix } from "../../../core/config/bounded-file-reader.js";
import { ContextFileLoader } from "../../../core/context/context-file-loader.js";
import { readPromptText } from "../../../core/context/context-text.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "zi-context-files-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe("readFilePrefix and readPromptText (the bounded reader, clipping instead of refusing)", () => {
  it("reads a small file whole and a large one up to the bound, saying it was cut", async () => {
    const small = write(join(dir, "small.md"), "hello");
    expect(await readFilePrefix(small, 10)).toEqual({ status: "ok", bytes: Buffer.from("hello"), truncated: false });
    const exact = write(join(dir, "exact.md"), "x".repeat(10));
    expect(await readFilePrefix(exact, 10)).toMatchObject({ status: "ok", truncated: false });
    const large = write(join(dir, "large.md"), "y".repeat(11));
    const read = await readFilePrefix(large, 10);
    expect(read).toMatchObject({ status: "ok", truncated: true });
    expect(read.status === "ok" && read.bytes.toString()).toBe("y".repeat(10));
  });

  it("never waits on a FIFO or reads a device, and a huge sparse file costs only its prefix", async () => {
    const fifo = join(dir, "AGENTS.md");
    execFileSync("mkfifo", [fifo]);
    expect(await readFilePrefix(fifo, 1024)).toEqual({ status: "refused", reason: "is a FIFO, not a regular file" });
    const zero = join(dir, "zero.md");
    symlinkSync("/dev/zero", zero);
    expect(await readFilePrefix(zero, 1024)).toEqual({ status: "refused", reason: "is a character device, not a regular file" });
    expect(await readFilePrefix(dir, 1024)).toEqual({ status: "refused", reason: "is a directory, not a regular file" });
    const huge = join(dir, "huge.md");
    writeFileSync(huge, "");
    truncateSync(huge, 8 * 1024 * 1024 * 1024);
    const read = await readFilePrefix(huge, 1024);
    expect(read.status === "ok" && [read.bytes.length, read.truncated]).toEqual([1024, true]);
    expect(await readFilePrefix(join(dir, "missing.md"), 10)).toEqual({ status: "missing" });
  });

  it("never ends inside a character and drops a byte-order mark", async () => {
    const file = write(join(dir, "utf8.md"), `\uFEFFab${"é".repeat(3)}`);
    // BOM (3 bytes) + "ab" + é (2 bytes each): a cut at 8 bytes would split the second é.
    expect(await readPromptText(file, 8)).toEqual({ status: "ok", text: "abé", clipped: true });
    expect(await readPromptText(file, 100)).toEqual({ status: "ok", text: "abééé", clipped: false });
  });
});

describe("ContextFileLoader", () => {
  const limits = { maxContextFileBytes: 64, maxContextTotalBytes: 100 };

  it("reads ZI_HOME/AGENTS.md, then one file per directory from the root down to cwd; CLAUDE.md only where there is no AGENTS.md", async () => {
    const home = join(dir, "home");
    const root = join(dir, "repo");
    const cwd = join(root, "a", "b");
    mkdirSync(cwd, { recursive: true });
    write(join(home, "AGENTS.md"), "global");
    write(join(home, "CLAUDE.md"), "not read in ZI_HOME");
    write(join(root, "AGENTS.md"), "root");
    write(join(root, "CLAUDE.md"), "shadowed by root AGENTS.md");
    write(join(root, "a", "CLAUDE.md"), "a via claude");
    write(join(cwd, "AGENTS.md"), "b");
    write(join(dir, "AGENTS.md"), "above the root: never read");
    const { files, problems } = await ContextFileLoader.load({ ziHome: home, cwd, root, limits });
    expect(problems).toEqual([]);
    expect(files).toEqual([
      { path: join(home, "AGENTS.md"), content: "global" },
      { path: join(root, "AGENTS.md"), content: "root" },
      { path: join(root, "a", "CLAUDE.md"), content: "a via claude" },
      { path: join(cwd, "AGENTS.md"), content: "b" },
    ]);
  });

  it("clips a long file, then cuts by the total budget, then omits, each marked", async () => {
    const home = join(dir, "home");
    const root = join(dir, "repo");
    const cwd = join(root, "a");
    write(join(home, "AGENTS.md"), "g".repeat(70));
    write(join(root, "AGENTS.md"), "r".repeat(50));
    write(join(cwd, "AGENTS.md"), "c".repeat(10));
    const { files } = await ContextFileLoader.load({ ziHome: home, cwd, root, limits });
    expect(files).toEqual([
      { path: join(home, "AGENTS.md"), content: "g".repeat(64), clipped: "file" },
      { path: join(root, "AGENTS.md"), content: "r".repeat(36), clipped: "total" },
      { path: join(cwd, "AGENTS.md"), content: "", clipped: "omitted" },
    ]);
  });

  it("reports an AGENTS.md that is not a regular file, reads the others, and reads a file reached twice once", async () => {
    const root = join(dir, "repo");
    const cwd = join(root, "sub");
    mkdirSync(cwd, { recursive: true });
    execFileSync("mkfifo", [join(root, "AGENTS.md")]);
    write(join(cwd, "AGENTS.md"), "sub");
    // ZI_HOME is the working directory itself (as in many test setups): its AGENTS.md is read once.
    const { files, problems } = await ContextFileLoader.load({ ziHome: cwd, cwd, root, limits });
    expect(problems).toEqual([{ source: join(root, "AGENTS.md"), error: "is a FIFO, not a regular file" }]);
    expect(files).toEqual([{ path: join(cwd, "AGENTS.md"), content: "sub" }]);
  });

  it("walks from the root down to cwd, or only cwd when it is not below the root", () => {
    expect(ContextFileLoader.walk("/r", "/r/a/b")).toEqual(["/r", "/r/a", "/r/a/b"]);
    expect(ContextFileLoader.walk("/r", "/r")).toEqual(["/r"]);
    expect(ContextFileLoader.walk("/r", "/elsewhere")).toEqual(["/elsewhere"]);
    expect(ContextFileLoader.walk("/r", "/rx")).toEqual(["/rx"]);
  });
});
