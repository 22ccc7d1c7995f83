import { expect } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Runs a fixture that compares a dependency's own module with what a build plugin of scripts/ makes
 * of it (in a fresh temporary directory, its one argument), and returns the JSON it prints. The
 * fixture must print nothing on stderr.
 */
export function runBuildFixture<T>(script: string): T {
  const dir = mkdtempSync(join(tmpdir(), "zi-build-fixture-"));
  try {
    const run = spawnSync(process.execPath, [script, dir], { encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    return JSON.parse(run.stdout) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
