import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The build bundles the ACP SDK's generated schemas through scripts/lazy-zod-schemas.mjs: each built
// on first use. The fixture compares the transformed SDK with the SDK itself, schema by schema.
describe("the ACP SDK's schemas, built on first use", () => {
  it("accept, reject and report exactly what the SDK's own schemas and guards do", () => {
    const dir = mkdtempSync(join(tmpdir(), "zi-lazy-zod-"));
    try {
      const run = spawnSync(process.execPath, ["test/fixtures/acp/compare-lazy-schemas.mjs", dir], { encoding: "utf8", timeout: 60_000 });
      expect(run.stderr).toBe("");
      const result = JSON.parse(run.stdout) as { schemas: number; guards: number; unconverted: number; instance: boolean; mismatches: string[] };
      expect(result.mismatches).toEqual([]);
      // Every exported schema and guard of the unstable v1 schema (the entry Zi's agent imports) was compared.
      expect(result.schemas).toBeGreaterThan(200);
      expect(result.guards).toBeGreaterThan(20);
      expect(result.unconverted).toBeLessThan(result.schemas / 10);
      expect(result.instance).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
