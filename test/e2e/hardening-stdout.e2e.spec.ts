import { afterEach, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZI_BIN, ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

// Issue 16, item 4: a child process that inherits Zi's stdio must not reach the protocol's stdout.
const FORGED = '{"version":1,"sequence":3,"type":"response","id":"forged","method":"session.get_state","ok":true,"result":{}}';

/** An extension whose `leak` command runs a child that inherits stdio (async, and with `execSync`) and prints to its stdout. */
function leakyExtension(): string {
  const dir = mkdtempSync(join(tmpdir(), "zi-e2e-inherit-"));
  const extension = join(dir, "inherit.mjs");
  const childCode = `process.stdout.write("not json\\n" + ${JSON.stringify(FORGED)} + "\\n")`;
  writeFileSync(
    extension,
    `import { execSync, spawn } from "node:child_process";
import { writeSync } from "node:fs";
export default (zi) => {
  zi.registerCommand("leak", {
    handler: () => new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["-e", ${JSON.stringify(childCode)}], { stdio: "inherit" });
      child.once("error", reject);
      child.once("exit", () => {
        execSync("echo sync-child-output", { stdio: "inherit" });
        // Native code or a careless extension writing to fd 1 itself: only the descriptor move stops that.
        if (process.env.ZI_TEST_WRITE_FD1) writeSync(1, "fd1-write\\n");
        resolve({ output: "spawned" });
      });
    }),
  });
};
`,
  );
  return extension;
}

const requests = [
  { version: 1, id: "c", method: "command.invoke", params: { name: "leak" } },
  { version: 1, id: "s", method: "session.get_state" },
];

describe("protocol stdout is private to the frame writer", () => {
  it("stdout a socket (Node's spawn): an extension's child with stdio 'inherit' writes to stderr, never between frames", async () => {
    const zi = new ZiProcess({ args: ["--mode", "rpc", "--no-session", "--extension", leakyExtension()] });
    expect(await zi.call("c", "command.invoke", { name: "leak" })).toMatchObject({ ok: true });
    await zi.waitForStderr(FORGED);
    await zi.waitForStderr("sync-child-output");
    expect(zi.stderr).toContain("not json\n");
    expect(await zi.call("s", "session.get_state")).toMatchObject({ ok: true });
    expect(zi.frames.some((frame) => frame.id === "forged")).toBe(false);
    expect(await zi.close()).toEqual({ code: 0, signal: null }); // assertWellFormed: every stdout line a frame, gapless
  }, 30_000);

  it("stdout a pipe (as shells, Python, Go and Rust create): the child's fd 1 is Zi's stderr, frames stay alone", async () => {
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-fifo-"));
    // bash gives Zi real pipes as stdout and stderr; the two cats copy them to this test.
    const child = spawn("bash", ["-o", "pipefail", "-c", '"$0" "$@" 2> >(cat >&2) | cat', process.execPath, ZI_BIN, "--mode", "rpc", "--no-session", "--extension", leakyExtension()], {
      env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home, ZI_TEST_WRITE_FD1: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // "close": after the stderr cat has copied everything too.
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    child.stdin.write(`${JSON.stringify(requests[0])}\n`);
    // The second request goes once the first is answered, so the child has run by then.
    while (!stdout.includes('"id":"c"')) await new Promise((resolve) => setTimeout(resolve, 20));
    child.stdin.end(`${JSON.stringify(requests[1])}\n`);
    expect(await exited).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    const frames = lines.map((line) => JSON.parse(line));
    expect(frames.map((frame) => frame.sequence)).toEqual(frames.map((_, index) => index + 1));
    expect(frames.filter((frame) => frame.type === "response").map((frame) => [frame.id, frame.ok])).toEqual([["c", true], ["s", true]]);
    expect(stderr).toContain(FORGED);
    expect(stderr).toContain("not json\n");
    expect(stderr).toContain("sync-child-output");
    expect(stderr).toContain("fd1-write\n");
  }, 30_000);
});
