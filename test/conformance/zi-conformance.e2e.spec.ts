import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { ZI_BIN } from "../support/zi-process.js";

const KIT = "conformance/zi-conformance.mjs";

function runKit(...command: string[]) {
  const run = spawnSync(process.execPath, [KIT, "--", ...command], { encoding: "utf8", timeout: 120_000 });
  const lines = run.stdout.trim().split("\n");
  return { status: run.status, lines, summary: lines.at(-1)!, stdout: run.stdout };
}

describe("conformance kit (zi-conformance)", () => {
  it("is shipped as the zi-conformance bin, in the package's files", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8"));
    expect(pkg.bin["zi-conformance"]).toBe(KIT);
    expect(pkg.files).toContain("conformance");
  });

  it("passes every rule against the built zi", () => {
    const run = runKit(process.execPath, ZI_BIN, "--mode", "rpc", "--no-session");
    const rules = run.lines.filter((line) => /^(PASS|FAIL) /.test(line));
    expect(rules.length).toBeGreaterThanOrEqual(15);
    expect(rules.filter((line) => line.startsWith("FAIL"))).toEqual([]);
    expect(run.summary).toBe(`${rules.length} passed, 0 failed`);
    expect(run.status).toBe(0);
  }, 150_000);

  it("fails, naming the rule, against a server that skips a sequence number", () => {
    const run = runKit(process.execPath, "test/conformance/fixtures/skipping-server.mjs", "--mode", "rpc", "--no-session");
    expect(run.lines).toContainEqual(expect.stringMatching(/^FAIL frames-well-formed /));
    expect(run.stdout).toMatch(/frame 3 has sequence 4 \(a gap or a repeat\)/);
    expect(run.summary).toMatch(/^\d+ passed, [1-9]\d* failed$/);
    expect(run.status).toBe(1);
  }, 150_000);

  it("prints its usage and exits 2 without a command", () => {
    const run = spawnSync(process.execPath, [KIT], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/usage: zi-conformance -- <command>/);
  });
});
