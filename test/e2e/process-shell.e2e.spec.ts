import { describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { memoryOf } from "../support/tool-processes.js";

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

  it("an MCP server flooding its stderr while nobody reads Zi's stderr leaves Zi under +50 MiB, and Zi's log says what it dropped", async () => {
    const home = mkdtempSync(join(tmpdir(), "zi-shell-flood-"));
    const marker = join(home, "flooded");
    const server = join(home, "flood.mjs");
    // 256 MiB of stderr, each write waiting for Zi to read the last; then the marker, then it idles.
    writeFileSync(
      server,
      `import { writeFileSync } from "node:fs";
const line = "x".repeat(1023) + "\\n";
const block = line.repeat(1024);
for (let i = 0; i < 256; i++) await new Promise((done) => process.stderr.write(block, done));
writeFileSync(${JSON.stringify(marker)}, "done");
setInterval(() => {}, 1000);
`,
    );
    writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { flood: { command: process.execPath, args: [server], startupTimeoutMs: 600000 } } }));
    const flooded = new Promise<void>((resolve) => {
      const watcher = watch(home, () => {
        if (existsSync(marker)) {
          watcher.close();
          resolve();
        }
      });
    });
    // stderr is a pipe nobody reads.
    const zi = spawn(process.execPath, [ZI, "--mode", "rpc", "--no-session"], { cwd: home, env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home }, stdio: ["pipe", "pipe", "pipe"] });
    const ready = new Promise<void>((resolve) => zi.stdout.once("data", () => resolve()));
    await ready;
    const before = memoryOf(zi.pid!).rss;
    await flooded;
    const grew = memoryOf(zi.pid!).rss - before;
    // Now read what Zi's stderr held: the server's lines, rate-limited, and the count of those dropped.
    let read = 0;
    let tail = "";
    const note = await new Promise<string>((resolve) => {
      zi.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        read += chunk.length;
        tail = (tail + chunk).slice(-4096);
        const found = /\[mcp flood\] \[zi: (\d+) lines of MCP server flood stderr dropped\]/.exec(tail);
        if (found) resolve(found[0]);
      });
    });
    zi.kill("SIGKILL");
    expect(grew).toBeLessThan(50 * 1024 * 1024);
    const dropped = Number(/(\d+) lines/.exec(note)![1]);
    expect(dropped).toBeGreaterThan(0);
    // Far less than the 256 MiB the server wrote reached Zi's stderr.
    expect(read).toBeLessThan(16 * 1024 * 1024);
  }, 120_000);
});

describe("a full disk", () => {
  it("is reported as such: the run fails with operation_failed's message naming the journal and ENOSPC", async () => {
    // ZI_HOME on a 128 KiB tmpfs of a private mount namespace (util-linux unshare, as an unprivileged user).
    const home = mkdtempSync(join(tmpdir(), "zi-full-"));
    const script = `mount -t tmpfs -o size=128k tmpfs "$ZI_HOME" && exec "$0" "$@"`;
    const zi = spawn("unshare", ["-Urm", "sh", "-c", script, process.execPath, ZI, "--mode", "rpc"], {
      cwd: home,
      env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    zi.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const frames: Record<string, any>[] = [];
    let buffered = "";
    const ended = new Promise<Record<string, any>>((resolve) => {
      zi.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        buffered += chunk;
        for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
          const frame = JSON.parse(buffered.slice(0, newline)) as Record<string, any>;
          buffered = buffered.slice(newline + 1);
          frames.push(frame);
          if (frame.event?.type === "agent_end") resolve(frame.event);
        }
      });
    });
    const send = (record: object) => zi.stdin.write(`${JSON.stringify({ version: 1, ...record })}\n`);
    send({ id: "m", method: "model.select", params: { provider: "faux", id: "echo" } });
    send({ id: "p", method: "session.prompt", params: { delivery: "direct", text: "x".repeat(200_000) } });
    const end = await ended;
    zi.stdin.end();
    await new Promise((resolve) => zi.on("close", resolve));
    expect(end.reason).toBe("failed");
    expect(end.errorMessage).toMatch(/^the session journal \/.*\.jsonl could not be written: ENOSPC \(no space left on the device\)$/);
    expect(stderr).toContain("ENOSPC");
  }, 60_000);
});
