import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The build bundles the openai SDK's core/streaming.mjs through scripts/linear-sse-chunks.mjs (its SSE
// reader no longer copies the rest of a read after every event). The fixture feeds the SDK's module
// and the transformed one the same bodies, cut into reads of many sizes, and compares their output.
describe("the openai SDK's SSE reader, made linear by the build", () => {
  it("cuts the same chunks and decodes the same messages as the SDK's own", () => {
    const dir = mkdtempSync(join(tmpdir(), "zi-sse-chunks-"));
    try {
      const run = spawnSync(process.execPath, ["test/fixtures/models/compare-sse-chunks.mjs", dir], { encoding: "utf8", timeout: 60_000 });
      expect(run.stderr).toBe("");
      const result = JSON.parse(run.stdout) as { compared: number; mismatches: string[] };
      expect(result.mismatches).toEqual([]);
      expect(result.compared).toBeGreaterThan(100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
