import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FindTool } from "../../../plugins/coding-tools/find.tool.js";
import { writeSearchTree } from "../../support/search-tree.js";
import { makeContext, makeTempDir, run, textOf } from "../../support/tool-test-kit.js";

// Every case runs twice: with ripgrep (installed by .ci/run) and with the Node search.
describe.each([
  ["ripgrep", undefined],
  ["the Node search", false],
] as const)("FindTool with %s", (_backend, ripgrep) => {
  let dir: string;
  let cleanup: () => void;
  const tool = new FindTool(ripgrep);

  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
    writeSearchTree(dir);
  });
  afterEach(() => cleanup());

  it("matches names at any depth for a slash-free pattern, skipping .gitignored node_modules and .git", async () => {
    const result = await run(tool, { pattern: "*.ts" }, dir);
    expect(textOf(result)).toBe("src/main.ts\nsrc/util/helper.ts\ntest/main.spec.ts");
    expect(result.details).toEqual({ count: 3, truncated: false });
  });

  it("matches relative paths with ** and braces, under a given path", async () => {
    expect(textOf(await run(tool, { pattern: "src/**/*.{ts,tsx}" }, dir))).toBe("src/main.ts\nsrc/util/helper.ts\nsrc/view.tsx");
    expect(textOf(await run(tool, { pattern: "util/?elper.ts", path: "src" }, dir))).toBe("src/util/helper.ts");
    expect(textOf(await run(tool, { pattern: "config", path: ".git" }, dir))).toBe(".git/config");
  });

  it("lists a file whose name holds an LF as one path (rg --files ends each with NUL)", async () => {
    mkdirSync(join(dir, "lf"));
    writeFileSync(join(dir, "lf", "a\nb.ts"), "");
    writeFileSync(join(dir, "lf", "c.ts"), "");
    expect(textOf(await run(tool, { pattern: "*.ts", path: "lf" }, dir))).toBe("lf/a\nb.ts\nlf/c.ts");
    expect(textOf(await run(tool, { pattern: "a?b.ts", path: "lf" }, dir))).toBe("lf/a\nb.ts");
  });

  it("bounds results by limit", async () => {
    mkdirSync(join(dir, "many"));
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, "many", `f${String(i).padStart(2, "0")}.log`), "");
    const result = await run(tool, { pattern: "*.log", limit: 3 }, dir);
    expect(textOf(result)).toBe(
      "many/f00.log\nmany/f01.log\nmany/f02.log\n\n[Showing the first 3 matching files; more exist. Narrow the pattern or path or raise limit.]",
    );
    expect(result.details).toEqual({ count: 3, truncated: true });
  });

  it("reports no matches without an error, and fails for a bad path or pattern", async () => {
    expect(textOf(await run(tool, { pattern: "*.java" }, dir))).toBe('No files found matching "*.java" in .');
    await expect(run(tool, { pattern: "*", path: "README.md" }, dir)).rejects.toThrow("find: README.md is not a directory.");
    await expect(run(tool, { pattern: "*", path: "nope" }, dir)).rejects.toThrow(/no such file/);
    await expect(run(tool, { pattern: "*.{a" }, dir)).rejects.toThrow(/unclosed/);
  });

  it("stops when interrupted", async () => {
    const context = makeContext(dir);
    context.controller.abort();
    await expect(tool.execute({ pattern: "*" }, context)).rejects.toThrow(/interrupted/);
  });
});
