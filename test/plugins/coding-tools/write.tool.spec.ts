import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WriteTool } from "../../../plugins/coding-tools/write.tool.js";
import { makeContext, makeTempDir, run, textOf } from "../../support/tool-test-kit.js";

describe("WriteTool", () => {
  let dir: string;
  let cleanup: () => void;
  const tool = new WriteTool();

  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
  });
  afterEach(() => cleanup());

  it("creates parent directories and reports UTF-8 bytes", async () => {
    const result = await run(tool, { path: "a/b/c.txt", content: "héllo\n" }, dir);
    expect(readFileSync(join(dir, "a/b/c.txt"), "utf8")).toBe("héllo\n");
    expect(textOf(result)).toBe("Created a/b/c.txt (7 bytes).");
    expect(result.details).toEqual({ path: "a/b/c.txt", bytes: 7, created: true });
  });

  it("replaces an existing file, keeps its mode and leaves no temporary file", async () => {
    const file = join(dir, "run.sh");
    writeFileSync(file, "old");
    chmodSync(file, 0o750);
    const result = await run(tool, { path: "run.sh", content: "" }, dir);
    expect(readFileSync(file, "utf8")).toBe("");
    expect(statSync(file).mode & 0o777).toBe(0o750);
    expect(result.details).toMatchObject({ bytes: 0, created: false });
    expect(readdirSync(dir)).toEqual(["run.sh"]);
  });

  it("writes through a symlink instead of replacing it", async () => {
    writeFileSync(join(dir, "target.txt"), "old");
    symlinkSync("target.txt", join(dir, "link.txt"));
    await run(tool, { path: "link.txt", content: "new" }, dir);
    expect(readFileSync(join(dir, "target.txt"), "utf8")).toBe("new");
    expect(readdirSync(dir).sort()).toEqual(["link.txt", "target.txt"]);
  });

  it("fails clearly for a directory target and a file used as a parent", async () => {
    mkdirSync(join(dir, "d"));
    writeFileSync(join(dir, "f"), "x");
    await expect(run(tool, { path: "d", content: "x" }, dir)).rejects.toThrow("d is a directory; write needs a file path.");
    await expect(run(tool, { path: "f/child.txt", content: "x" }, dir)).rejects.toThrow(/f\/child.txt|f:/);
    await expect(run(tool, { path: "x.txt" }, dir)).rejects.toThrow(/"content" must be a string/);
    expect(readdirSync(dir).sort()).toEqual(["d", "f"]);
  });

  it("does nothing once interrupted", async () => {
    const context = makeContext(dir);
    context.controller.abort();
    await expect(tool.execute({ path: "x.txt", content: "x" }, context)).rejects.toThrow(/interrupted/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
