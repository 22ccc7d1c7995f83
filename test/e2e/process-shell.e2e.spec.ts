import { describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ZI = resolve("dist/bin/zi.js");

/** Runs the built zi with stderr a pipe; resolves with its exit code and everything it wrote there. */
function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const home = mkdtempSync(join(tmpdir(), "zi-shell-"));
  const child = spawn(process.execPath, [ZI, ...args], { cwd: home, env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((done) => child.on("close", (code) => done({ code, stderr })));
}

describe("the process shell's exit", () => {
  it("zi prompt loses no stderr line when stderr is a pipe: 20,000 lines written at load all arrive", async () => {
    const extension = join(mkdtempSync(join(tmpdir(), "zi-shell-ext-")), "spam.mjs");
    writeFileSync(extension, "export default function () { for (let i = 0; i < 20000; i++) process.stderr.write(`line ${i}\\n`); }\n");
    const { code, stderr } = await run(["prompt", "--extension", extension]);
    expect(code).toBe(0);
    const lines = stderr.split("\n").filter((line) => line.startsWith("line "));
    expect(lines).toHaveLength(20000);
    expect(lines.at(-1)).toBe("line 19999");
  }, 60_000);
});
