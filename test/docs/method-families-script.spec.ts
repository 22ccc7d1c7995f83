import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { extractDocBlocks } from "../support/doc-blocks.js";

/**
 * docs/method-families.md's test script, run as the doc says: from the repository (the source tree,
 * not the build) with `node --import ./scripts/ts-node-esm.mjs`. It hung with exit 13 when `zi/testing`
 * resolved to dist/ while the family was compiled from source. The repository is linked into a scratch
 * directory so that the doc's family files are written beside its `core/` without touching methods/.
 */
describe("docs/method-families.md's test script, as written", () => {
  it("prints say_hello: ok from the source tree", () => {
    const doc = "docs/method-families.md";
    const { blocks } = extractDocBlocks(doc, readFileSync(doc, "utf8"));
    const script = blocks.find((block) => block.run === "run" && block.path === undefined && block.code.includes("serveFamilies"));
    expect(script?.output).toBe("say_hello: ok\n");
    const dir = mkdtempSync(join(tmpdir(), "zi-families-doc-"));
    try {
      for (const name of ["core", "scripts", "node_modules", "package.json", "tsconfig.json"]) symlinkSync(resolve(name), join(dir, name));
      for (const block of blocks.filter((candidate) => candidate.path?.startsWith("methods/"))) {
        mkdirSync(dirname(join(dir, block.path!)), { recursive: true });
        writeFileSync(join(dir, block.path!), block.code);
      }
      writeFileSync(join(dir, "script.ts"), script!.code);
      const run = spawnSync(process.execPath, ["--import", "./scripts/ts-node-esm.mjs", "script.ts"], { cwd: dir, encoding: "utf8", timeout: 60_000 });
      expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 0, stdout: "say_hello: ok\n", stderr: "" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
