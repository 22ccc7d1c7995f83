import { describe, expect, it } from "@jest/globals";
import { runBuildFixture } from "../../support/build-fixture.js";

// The build bundles the ACP SDK's generated schemas through scripts/lazy-zod-schemas.mjs: each built
// on first use. The fixture compares the transformed SDK with the SDK itself, schema by schema.
describe("the ACP SDK's schemas, built on first use", () => {
  it("accept, reject and report exactly what the SDK's own schemas and guards do", () => {
    const result = runBuildFixture<{ schemas: number; guards: number; unconverted: number; instance: boolean; mismatches: string[] }>("test/fixtures/acp/compare-lazy-schemas.mjs");
    expect(result.mismatches).toEqual([]);
    // Every exported schema and guard of the unstable v1 schema (the entry Zi's agent imports) was compared.
    expect(result.schemas).toBeGreaterThan(200);
    expect(result.guards).toBeGreaterThan(20);
    expect(result.unconverted).toBeLessThan(result.schemas / 10);
    expect(result.instance).toBe(true);
  });
});
