import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";

describe("startup cost", () => {
  it("constructing an AgentSession and admitting a prompt does not import pi-ai", () => {
    const run = spawnSync(
      process.execPath,
      [
        "--import",
        "./scripts/ts-node-esm.mjs",
        "--import",
        "./test/fixtures/session/register-pi-ai-hook.mjs",
        "test/fixtures/session/construct-session.ts",
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(run.stderr).toContain("constructed: 1 queued");
    expect(run.stderr).not.toContain("pi-ai imported");
    expect(run.stdout).toBe("");
  });
});
