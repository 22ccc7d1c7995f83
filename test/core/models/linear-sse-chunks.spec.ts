import { describe, expect, it } from "@jest/globals";
import { runBuildFixture } from "../../support/build-fixture.js";

// The build bundles the openai SDK's core/streaming.mjs through scripts/linear-sse-chunks.mjs (its SSE
// reader no longer copies the rest of a read after every event). The fixture feeds the SDK's module
// and the transformed one the same bodies, cut into reads of many sizes, and compares their output.
describe("the openai SDK's SSE reader, made linear by the build", () => {
  it("cuts the same chunks and decodes the same messages as the SDK's own", () => {
    const result = runBuildFixture<{ compared: number; mismatches: string[] }>("test/fixtures/models/compare-sse-chunks.mjs");
    expect(result.mismatches).toEqual([]);
    expect(result.compared).toBeGreaterThan(100);
  });
});
