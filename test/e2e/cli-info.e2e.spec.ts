import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { ZI_BIN } from "../support/zi-process.js";

const run = (args: string[]) => spawnSync(process.execPath, [ZI_BIN, ...args], { encoding: "utf8", timeout: 30000 });
const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

/** Asked-for information is the command's output: stdout and exit 0; only usage errors go to stderr. */
describe("zi --help and zi --version", () => {
  it.each([["--help"], ["-h"]])("%s prints the usage on stdout and exits 0", (flag) => {
    const result = run([flag]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage: zi --mode rpc .*\n {7}zi --mode json .*\n {7}zi --mode acp .*\n {7}zi prompt .*\n {7}zi schema\n {7}zi export JOURNAL \[OUT\]\n$/);
    expect(result.stderr).toBe("");
  });

  it("--version prints the package version on stdout and exits 0", () => {
    const result = run(["--version"]);
    expect(result).toMatchObject({ status: 0, stdout: `zi ${version}\n`, stderr: "" });
  });

  it("a usage error still goes to stderr with exit code 2 and nothing on stdout", () => {
    const result = run(["--bogus"]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^zi: unknown option --bogus\nusage: zi/);
  });
});
