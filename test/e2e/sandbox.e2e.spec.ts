import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gone, sleep } from "../support/tool-processes.js";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });
const write = (...paths: string[]) => ({ toolCalls: paths.map((path) => ({ name: "write", arguments: { path, content: "planted" } })) });
const select = (zi: ZiProcess) => zi.call("m", "model.select", { provider: "faux", id: "scripted" });
const ends = (zi: ZiProcess) => zi.events("tool_execution_end");

/** The host pids whose command line holds `marker` (a sandboxed process has its own pid inside). */
function pidsWith(marker: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("zi's bash in the bubblewrap sandbox (built zi, real bwrap)", () => {
  it("--sandbox workspace-write: ready says so; a write to the home directory fails and leaves nothing, the cwd is writable", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-sbx-cwd-"));
    const zi = new ZiProcess({ cwd, args: ["--mode", "rpc", "--no-session", "--sandbox", "workspace-write"], fauxScript: { responses: [bash("echo x > $HOME/escaped; echo y > inside.txt"), { text: "done" }] } });
    const ready = await zi.waitFor((frame) => frame.type === "ready");
    expect(ready.state.sandbox).toMatchObject({ mode: "workspace-write", network: false, writableRoots: [] });
    await select(zi);
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go", completionId: "c" });
    await zi.call("w", "session.await_idle", { completionId: "c" });
    const [end] = ends(zi);
    expect(end.result.content[0].text).toMatch(/Read-only file system/);
    expect(existsSync(join(zi.ziHome, "escaped"))).toBe(false);
    expect(readFileSync(join(cwd, "inside.txt"), "utf8")).toBe("y\n");
    const state = await zi.call("s", "session.get_state", {});
    expect(state.result.sandbox.support).toEqual({ status: "available", base: "bubblewrap" });
    await zi.close();
  }, 30_000);

  it("workspace-write fences the write tool as bubblewrap fences bash: outside the cwd, .git, .zi, ZI_HOME and a symlink out are refused, the cwd is written", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-sbx-cwd-"));
    const outside = mkdtempSync(join(tmpdir(), "zi-sbx-outside-"));
    mkdirSync(join(cwd, ".git"));
    symlinkSync(outside, join(cwd, "link"));
    const ziHome = mkdtempSync(join(tmpdir(), "zi-sbx-home-"));
    const refused = [join(outside, "a"), ".git/config", ".zi/settings.json", join(ziHome, "settings.json"), "link/b"];
    const zi = new ZiProcess({ cwd, ziHome, args: ["--mode", "rpc", "--no-session", "--sandbox", "workspace-write"], fauxScript: { responses: [write(...refused, "inside.txt"), { text: "done" }] } });
    await select(zi);
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go", completionId: "c" });
    await zi.call("w", "session.await_idle", { completionId: "c" });
    const results = ends(zi).map((end) => [end.isError, end.result.content[0].text]);
    expect(results.slice(0, refused.length).every(([isError, text]) => isError === true && /The sandbox \(mode "workspace-write"\) refused this write/.test(text))).toBe(true);
    expect(results[refused.length]![0]).toBe(false);
    expect(readFileSync(join(cwd, "inside.txt"), "utf8")).toBe("planted");
    expect([existsSync(join(outside, "a")), existsSync(join(cwd, ".git", "config")), existsSync(join(cwd, ".zi")), existsSync(join(outside, "b"))]).toEqual([false, false, false, false]);
    expect(existsSync(join(ziHome, "settings.json"))).toBe(false);
    await zi.close();
  }, 30_000);

  it("read-only refuses the write tool in the cwd too", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-sbx-cwd-"));
    const zi = new ZiProcess({ cwd, args: ["--mode", "rpc", "--no-session", "--sandbox", "read-only"], fauxScript: { responses: [write("inside.txt"), { text: "done" }] } });
    await select(zi);
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go", completionId: "c" });
    await zi.call("w", "session.await_idle", { completionId: "c" });
    const [end] = ends(zi);
    expect([end.isError, end.result.content[0].text]).toEqual([true, 'The sandbox (mode "read-only") refused this write: in read-only mode no tool writes files.']);
    expect(existsSync(join(cwd, "inside.txt"))).toBe(false);
    await zi.close();
  }, 30_000);

  it("permission.set_sandbox at run time: off, then read-only blocks writes in the cwd; the state shows it", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-sbx-cwd-"));
    const zi = new ZiProcess({ cwd, args: ["--mode", "rpc", "--no-session"], fauxScript: { responses: [bash("echo a > a.txt"), { text: "one" }, bash("echo b > b.txt"), { text: "two" }] } });
    const ready = await zi.waitFor((frame) => frame.type === "ready");
    expect(ready.state.sandbox).toEqual({ mode: "off", network: false, writableRoots: [], support: { status: "unchecked" } });
    await select(zi);
    await zi.call("p1", "session.prompt", { delivery: "direct", text: "go", completionId: "c1" });
    await zi.call("w1", "session.await_idle", { completionId: "c1" });
    expect(existsSync(join(cwd, "a.txt"))).toBe(true);
    const set = await zi.call("x", "permission.set_sandbox", { mode: "read-only" });
    expect(set.result.sandbox).toMatchObject({ mode: "read-only", network: false });
    await zi.call("p2", "session.prompt", { delivery: "direct", text: "again", completionId: "c2" });
    await zi.call("w2", "session.await_idle", { completionId: "c2" });
    expect(ends(zi)[1].isError).toBe(true);
    expect(ends(zi)[1].result.content[0].text).toMatch(/b\.txt: Read-only file system/);
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);
    expect((await zi.call("s", "session.get_state", {})).result.sandbox.mode).toBe("read-only");
    await zi.close();
  }, 30_000);

  it("SIGKILL of Zi leaves no sandboxed process behind (pid namespace, die-with-parent)", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-sbx-cwd-"));
    const marker = `zi-sbx-marker-${process.pid}-${Date.now()}`;
    // A job left running in the background, that ignores SIGHUP and outlives its shell's wait.
    const command = `(exec -a ${marker} sleep 300) & disown; (trap '' HUP TERM; exec -a ${marker}-2 sleep 300) & echo started > started; wait`;
    const zi = new ZiProcess({ cwd, args: ["--mode", "rpc", "--no-session", "--sandbox", "workspace-write"], fauxScript: { responses: [bash(command)] } });
    await select(zi);
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go" });
    // Bounded waits on what the sandbox writes and runs (no timing assertion).
    while (!existsSync(join(cwd, "started")) || pidsWith(marker).length < 2) await sleep(20);
    const sleeping = pidsWith(marker);
    zi.child.kill("SIGKILL");
    expect(await zi.exited).toEqual({ code: null, signal: "SIGKILL" });
    for (const pid of sleeping) expect(await gone(pid)).toBe(true);
  }, 30_000);

  it("bubblewrap hidden from PATH: the sandboxed call fails naming the cause and the fix, and nothing runs", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "zi-sbx-cwd-"));
    // A PATH with bash and what Zi runs around it, but no bwrap.
    const bin = mkdtempSync(join(tmpdir(), "zi-sbx-bin-"));
    for (const tool of ["bash", "setpriv", "rg"]) for (const dir of ["/usr/bin", "/bin"]) if (existsSync(join(dir, tool)) && !existsSync(join(bin, tool))) symlinkSync(join(dir, tool), join(bin, tool));
    mkdirSync(join(cwd, "sub"));
    const zi = new ZiProcess({ cwd, env: { PATH: bin }, args: ["--mode", "rpc", "--no-session", "--sandbox", "workspace-write"], fauxScript: { responses: [bash("touch ran"), { text: "done" }] } });
    await select(zi);
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go", completionId: "c" });
    await zi.call("w", "session.await_idle", { completionId: "c" });
    const [end] = ends(zi);
    expect(end.isError).toBe(true);
    expect(end.result.content[0].text).toMatch(/did not run: the sandbox \(mode "workspace-write"\) cannot start: bubblewrap \(bwrap\) was not found on PATH\. To fix: install bubblewrap .*--sandbox off/);
    expect(existsSync(join(cwd, "ran"))).toBe(false);
    const state = await zi.call("s", "session.get_state", {});
    expect(state.result.sandbox.support).toMatchObject({ status: "unavailable", reason: expect.stringContaining("not found on PATH") });
    await zi.close();
  }, 30_000);
});
