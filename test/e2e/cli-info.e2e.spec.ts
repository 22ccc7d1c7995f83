import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { ZI_BIN } from "../support/zi-process.js";

const run = (args: string[]) => spawnSync(process.execPath, [ZI_BIN, ...args], { encoding: "utf8", timeout: 30000 });
const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

/** Asked-for information is the command's output: stdout and exit 0; only usage errors go to stderr. */
describe("zi --help and zi --version", () => {
  it.each([["--help"], ["-h"]])("%s explains Zi on stdout, in 80 columns, and exits 0", (flag) => {
    const result = run([flag]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.trimEnd().split("\n");
    // The docs path is this checkout's, whose length the help cannot choose.
    expect(lines.filter((line) => !line.includes("/docs/") && line.length > 80)).toEqual([]);
    // Every mode and what it is for.
    for (const mode of ["interactive session", "zi -p", "zi --mode rpc", "zi --mode json", "zi --mode acp", "zi --mode pi-rpc", "zi prompt", "zi schema", "zi export"]) expect(result.stdout).toContain(mode);
    for (const flag of ["--model", "--thinking", "--continue", "--resume", "--session", "--no-session", "--extension", "--trust-project"]) expect(result.stdout).toContain(flag);
    // The environment, the files read and where the docs are.
    for (const text of ["ZI_HOME", "ANTHROPIC_API_KEY", "settings.json", "models.json", "AGENTS.md", "mcp.json", "skills"]) expect(result.stdout).toContain(text);
    expect(result.stdout).toContain(`${process.cwd()}/docs/`);
    expect(result.stdout).toMatch(/Exit status [^\n]*0 completed,\s+1 failed,\s+2 usage,\s+3 budget exceeded,\s+4 structured output invalid,\s+130 interrupted/);
  });

  it("--version prints the package version on stdout and exits 0", () => {
    const result = run(["--version"]);
    expect(result).toMatchObject({ status: 0, stdout: `zi ${version}\n`, stderr: "" });
  });

  it("a usage error still goes to stderr with exit code 2 and nothing on stdout", () => {
    const result = run(["--bogus"]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^zi: unknown option --bogus\nusage: zi --mode rpc .*\n {7}zi --mode json .*\n {7}zi --mode acp .*\n {7}zi --mode pi-rpc .*\n {7}zi prompt .*\n {7}zi schema\n {7}zi export JOURNAL \[OUT\]\n {7}zi \[--model .*\n {7}zi -p .*\n$/);
  });
});
