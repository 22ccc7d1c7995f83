import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LsTool } from "../../../plugins/coding-tools/ls.tool.js";
import { makeTempDir, run, textOf } from "../../support/tool-test-kit.js";

describe("LsTool", () => {
  let dir: string;
  let cleanup: () => void;
  const tool = new LsTool();

  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
  });
  afterEach(() => cleanup());

  it("lists the working directory sorted, with dotfiles and directories suffixed", async () => {
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "b.txt"), "");
    writeFileSync(join(dir, ".env"), "");
    writeFileSync(join(dir, "A.md"), "");
    symlinkSync("src", join(dir, "link"));
    const result = await run(tool, {}, dir);
    expect(textOf(result)).toBe(".env\nA.md\nb.txt\nlink/\nsrc/");
    expect(result.details).toEqual({ path: ".", entries: 5, shown: 5, ignored: 0, truncated: false });
  });

  it("marks the entries grep and find skip, by the same ignore rule (parent and nested ignore files)", async () => {
    mkdirSync(join(dir, ".git", "info"), { recursive: true });
    writeFileSync(join(dir, ".git", "info", "exclude"), "local.txt\n");
    writeFileSync(join(dir, ".gitignore"), "build/\n*.log\n");
    mkdirSync(join(dir, "pkg", "build"), { recursive: true });
    writeFileSync(join(dir, "pkg", ".ignore"), "secret.txt\n");
    for (const name of ["a.log", "secret.txt", "local.txt", "main.ts"]) writeFileSync(join(dir, "pkg", name), "");
    writeFileSync(join(dir, "local.txt"), "");
    const top = await run(tool, {}, dir);
    expect(textOf(top)).toBe(".git/  (ignored)\n.gitignore\nlocal.txt  (ignored)\npkg/");
    const pkg = await run(tool, { path: "pkg" }, dir);
    expect(textOf(pkg)).toBe(".ignore\na.log  (ignored)\nbuild/  (ignored)\nlocal.txt  (ignored)\nmain.ts\nsecret.txt  (ignored)");
    expect(pkg.details).toMatchObject({ entries: 6, ignored: 4 });
  });

  it("lists a subdirectory and honours limit", async () => {
    mkdirSync(join(dir, "d"));
    for (const name of ["1", "2", "3", "4"]) writeFileSync(join(dir, "d", name), "");
    const result = await run(tool, { path: "d", limit: 2 }, dir);
    expect(textOf(result)).toBe("1\n2\n\n[Showing 2 of 4 entries. Raise limit or narrow the path to see more.]");
    expect(result.details).toMatchObject({ path: "d", shown: 2, truncated: true });
  });

  it("reports an empty directory", async () => {
    expect(textOf(await run(tool, {}, dir))).toBe("(empty directory)");
  });

  it("fails clearly for a missing path or a file", async () => {
    writeFileSync(join(dir, "f"), "");
    await expect(run(tool, { path: "nope" }, dir)).rejects.toThrow("nope: no such file or directory.");
    await expect(run(tool, { path: "f" }, dir)).rejects.toThrow("f is not a directory (use read for files).");
    await expect(run(tool, { limit: 0 }, dir)).rejects.toThrow(/"limit"/);
  });
});
