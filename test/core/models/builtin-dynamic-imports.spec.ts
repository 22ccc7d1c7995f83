import { describe, expect, it } from "@jest/globals";
import { runBuildFixture } from "../../support/build-fixture.js";

// The build bundles pi-ai's env-api-keys.js through scripts/builtin-dynamic-imports.mjs: its import()s
// of Node's built-ins become process.getBuiltinModule, so loading it builds no node:fs module facade
// (whose getters load fs streams and fs/promises). The fixture compares it with pi-ai's own module.
describe("pi-ai's built-in imports, read without module facades by the build", () => {
  it("load none of node:fs's streams, answer as pi-ai's own module does, and refuse what is no built-in", () => {
    const result = runBuildFixture<{ streams: Record<string, boolean>; answers: Record<string, { pi: string | null; light: string | null }>; refused: boolean }>(
      "test/fixtures/models/compare-builtin-imports.mjs",
    );
    // pi-ai's own module, loaded after it, does load them: the probe sees the difference.
    expect(result.streams).toEqual({ before: false, afterLight: false, afterPi: true });
    expect(result.answers).toEqual({ present: { pi: "<authenticated>", light: "<authenticated>" }, missing: { pi: null, light: null } });
    expect(result.refused).toBe(true);
  });
});
