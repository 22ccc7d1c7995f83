import { describe, expect, it } from "@jest/globals";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { SandboxControl } from "../../../core/sandbox/sandbox-control.js";
import type { SandboxMode } from "../../../core/wire/session-types.js";

/** Runs `script` with real bash inside the real bubblewrap sandbox, as the bash tool does. */
async function sandboxed(mode: SandboxMode, cwd: string, script: string, options: { network?: boolean; protectedPaths?: string[] } = {}) {
  const control = new SandboxControl({ mode, network: options.network ?? false, writableRoots: [] }, options.protectedPaths ?? []);
  const [file, ...args] = await control.command(["bash", "-c", script], cwd);
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(file!, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (data: Buffer) => void (output += data));
    child.stderr.on("data", (data: Buffer) => void (output += data));
    child.once("close", (code) => resolve({ code, output }));
  });
}

/** A project with a git directory and Zi settings, and a place outside it (in the home directory: visible, read-only, inside the sandbox). */
function project() {
  const cwd = mkdtempSync(join(tmpdir(), "zi-escape-cwd-"));
  mkdirSync(join(cwd, ".git", "hooks"), { recursive: true });
  mkdirSync(join(cwd, ".zi"));
  writeFileSync(join(cwd, ".zi", "settings.json"), "{}");
  const outside = mkdtempSync(join(homedir(), ".zi-escape-outside-"));
  writeFileSync(join(outside, "victim"), "original");
  return { cwd, outside, cleanup: () => rmSync(outside, { recursive: true, force: true }) };
}

describe("the bubblewrap sandbox, escaped against for real", () => {
  it("workspace-write: writing in the cwd and the private tmp works, and the private tmp is not the host's", async () => {
    const { cwd, cleanup } = project();
    const marker = `zi-escape-tmp-${process.pid}-${Date.now()}`;
    const run = await sandboxed("workspace-write", cwd, `echo ok > inside.txt && echo t > /tmp/${marker} && cat /tmp/${marker}`);
    expect(run).toEqual({ code: 0, output: "t\n" });
    expect(readFileSync(join(cwd, "inside.txt"), "utf8")).toBe("ok\n");
    expect(existsSync(join(tmpdir(), marker))).toBe(false);
    cleanup();
  });

  it.each([
    ["the home directory", () => `echo x > ${homedir()}/zi-escape-home-${process.pid}`, () => join(homedir(), `zi-escape-home-${process.pid}`)],
    ["/etc", () => `echo x > /etc/zi-escape-${process.pid}`, () => `/etc/zi-escape-${process.pid}`],
    ["/proc/self/root", () => `echo x > /proc/self/root/etc/zi-escape-proc-${process.pid}`, () => `/etc/zi-escape-proc-${process.pid}`],
    ["a directory outside the cwd", (o: string) => `echo x > ${o}/new`, (o: string) => join(o, "new")],
  ])("workspace-write: a write to %s fails and leaves nothing", async (_where, script, target) => {
    const { cwd, outside, cleanup } = project();
    const run = await sandboxed("workspace-write", cwd, script(outside));
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/Read-only file system|Permission denied/);
    expect(existsSync(target(outside))).toBe(false);
    cleanup();
  });

  it("workspace-write: a symlink planted in the cwd leads nowhere writable", async () => {
    const { cwd, outside, cleanup } = project();
    symlinkSync(outside, join(cwd, "link"));
    const run = await sandboxed("workspace-write", cwd, "echo x > link/new; echo changed > link/victim");
    expect(run.output).toMatch(/Read-only file system/);
    expect(existsSync(join(outside, "new"))).toBe(false);
    expect(readFileSync(join(outside, "victim"), "utf8")).toBe("original");
    cleanup();
  });

  it("workspace-write: a hard link to a file outside cannot be made from inside, so nothing is written through it", async () => {
    const { cwd, outside, cleanup } = project();
    const run = await sandboxed("workspace-write", cwd, `ln ${outside}/victim hard && echo changed > hard`);
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/cross-device|Operation not permitted|Read-only/);
    expect(readFileSync(join(outside, "victim"), "utf8")).toBe("original");
    expect(existsSync(join(cwd, "hard"))).toBe(false);
    cleanup();
  });

  it("workspace-write: .git (hooks included), .zi and the protected settings stay read-only, and cannot be moved away", async () => {
    const { cwd, cleanup } = project();
    const settingsHome = mkdtempSync(join(cwd, "zi-home-"));
    const run = await sandboxed(
      "workspace-write",
      cwd,
      `echo evil > .git/hooks/pre-commit; echo '{"x":1}' > .zi/settings.json; echo x > ${settingsHome}/settings.json; mv .git gone; rm -rf .git`,
      { protectedPaths: [settingsHome] },
    );
    expect(run.output.match(/Read-only file system|Device or resource busy/g)?.length).toBeGreaterThanOrEqual(4);
    expect(existsSync(join(cwd, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(readFileSync(join(cwd, ".zi", "settings.json"), "utf8")).toBe("{}");
    expect(existsSync(join(settingsHome, "settings.json"))).toBe(false);
    expect(existsSync(join(cwd, ".git", "hooks"))).toBe(true);
    cleanup();
  });

  it("workspace-write: the hooks directory core.hooksPath sets (.husky) stays read-only too, and cannot be moved away", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-escape-husky-"));
    execFileSync("git", ["init", "-q", cwd]);
    execFileSync("git", ["-C", cwd, "config", "core.hooksPath", ".husky"]);
    mkdirSync(join(cwd, ".husky"));
    writeFileSync(join(cwd, ".husky", "pre-commit"), "npm test\n");
    const run = await sandboxed("workspace-write", cwd, "echo evil >> .husky/pre-commit; echo evil > .husky/pre-push; mv .husky gone; rm -rf .husky; echo ok > src.txt");
    expect(run.output.match(/Read-only file system|Device or resource busy/g)?.length).toBeGreaterThanOrEqual(3);
    expect(readFileSync(join(cwd, ".husky", "pre-commit"), "utf8")).toBe("npm test\n");
    expect(existsSync(join(cwd, ".husky", "pre-push"))).toBe(false);
    expect(readFileSync(join(cwd, "src.txt"), "utf8")).toBe("ok\n");
  });

  it("workspace-write: a git directory that a .git file points to (--separate-git-dir) inside the cwd stays read-only: no hook, no config", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-escape-gitdir-"));
    execFileSync("git", ["init", "-q", `--separate-git-dir=${join(cwd, "store")}`, cwd]);
    const run = await sandboxed("workspace-write", cwd, "echo evil > store/hooks/pre-commit; git config core.hooksPath /tmp/evil; echo ok > src.txt");
    expect(run.output.match(/Read-only file system|could not lock config file/g)?.length).toBeGreaterThanOrEqual(2);
    expect(existsSync(join(cwd, "store", "hooks", "pre-commit"))).toBe(false);
    expect(readFileSync(join(cwd, "store", "config"), "utf8")).not.toContain("hooksPath");
    expect(readFileSync(join(cwd, "src.txt"), "utf8")).toBe("ok\n");
  });

  it("read-only: nothing in the cwd is writable; the private tmp is", async () => {
    const { cwd, cleanup } = project();
    const run = await sandboxed("read-only", cwd, "echo x > inside.txt; echo t > /tmp/t && cat /tmp/t");
    expect(run.output).toMatch(/inside\.txt: Read-only file system/);
    expect(run.output).toContain("t\n");
    expect(existsSync(join(cwd, "inside.txt"))).toBe(false);
    cleanup();
  });

  it("network off: a listener on 127.0.0.1 is unreachable; allowed, it is reached", async () => {
    const { cwd, cleanup } = project();
    const connections: number[] = [];
    const server = createServer((socket) => {
      connections.push(1);
      socket.end("hello\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const script = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;
    const off = await sandboxed("workspace-write", cwd, script);
    expect(off.code).not.toBe(0);
    expect(connections).toHaveLength(0);
    const on = await sandboxed("workspace-write", cwd, script, { network: true });
    expect(on).toEqual({ code: 0, output: "hello\n" });
    expect(connections).toHaveLength(1);
    server.close();
    cleanup();
  });
});
