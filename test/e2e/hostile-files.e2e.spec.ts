import { afterEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
const mkfifo = (path: string) => execFileSync("mkfifo", [path]);
const linesAbout = (stderr: string, path: string) => stderr.split("\n").filter((line) => line.includes(path));

/** A ZI_HOME whose settings.json, models.json and auth.json are FIFOs no one will ever write to. */
function fifoHome(): string {
  const home = tempDir("zi-e2e-fifo-home-");
  for (const name of ["settings.json", "models.json", "auth.json"]) mkfifo(join(home, name));
  return home;
}

describe("zi as a black box: configuration that is not a regular file", () => {
  it("starts, lists models and exits on stdin EOF with settings.json, models.json and auth.json as FIFOs; one stderr line each", async () => {
    const home = fifoHome();
    const zi = new ZiProcess({ ziHome: home });
    const ready = await zi.waitFor((f) => f.type === "ready");
    expect(ready.state.model).toEqual({ type: "unselected" });
    const listed = await zi.call("l", "model.list");
    expect(listed.result.models[0]).toMatchObject({ provider: "faux", id: "echo" });
    expect(await zi.call("m", "model.select", { provider: "faux", id: "echo" })).toMatchObject({ ok: true });
    expect((await zi.close()).code).toBe(0);
    expect(linesAbout(zi.stderr, join(home, "settings.json"))).toEqual([`zi: warning: global settings ${join(home, "settings.json")} is a FIFO, not a regular file; ignoring it`]);
    expect(linesAbout(zi.stderr, join(home, "auth.json"))).toEqual([`zi: warning: credentials file ${join(home, "auth.json")} is a FIFO, not a regular file; ignoring it`]);
    expect(linesAbout(zi.stderr, join(home, "models.json"))).toEqual([`zi: warning: models file ${join(home, "models.json")} is a FIFO, not a regular file; its providers are skipped`]);
  });

  it("still obeys SIGTERM after model.list with FIFOs in ZI_HOME", async () => {
    const zi = new ZiProcess({ ziHome: fifoHome() });
    await zi.call("l", "model.list");
    zi.child.kill("SIGTERM");
    expect((await zi.exited).code).toBe(143);
    zi.assertWellFormed();
  });

  it("ignores settings.json linked to /dev/zero (global and project) without reading it: RSS stays small", async () => {
    const home = tempDir("zi-e2e-zero-home-");
    const project = tempDir("zi-e2e-zero-project-");
    symlinkSync("/dev/zero", join(home, "settings.json"));
    mkdirSync(join(project, ".zi"));
    symlinkSync("/dev/zero", join(project, ".zi", "settings.json"));
    const zi = new ZiProcess({ ziHome: home, cwd: project });
    const ready = await zi.waitFor((f) => f.type === "ready");
    expect(ready.state.thinkingLevel).toBe("off");
    // Zi's own bound, not a timing: reading /dev/zero took it past 1.5 GiB before.
    const rss = Number(execFileSync("ps", ["-o", "rss=", "-p", String(zi.child.pid)]).toString().trim()) * 1024;
    expect(rss).toBeLessThan(300 * 1024 * 1024);
    expect((await zi.close()).code).toBe(0);
    expect(linesAbout(zi.stderr, "settings.json")).toEqual([
      expect.stringMatching(/^zi: warning: (global|project) settings .* is a character device, not a regular file; ignoring it$/),
      expect.stringMatching(/^zi: warning: (global|project) settings .* is a character device, not a regular file; ignoring it$/),
    ]);
  });

  it("refuses an oversized settings.json with one line and the documented fallback (empty settings)", async () => {
    const home = tempDir("zi-e2e-big-home-");
    writeFileSync(join(home, "settings.json"), JSON.stringify({ thinkingLevel: "high", pad: "x".repeat(1024 * 1024) }));
    const zi = new ZiProcess({ ziHome: home });
    await zi.waitFor((f) => f.type === "ready");
    expect((await zi.close()).code).toBe(0);
    expect(linesAbout(zi.stderr, "settings.json")).toEqual([`zi: warning: global settings ${join(home, "settings.json")} is larger than 1048576 bytes; ignoring it`]);
  });

  it.each([
    ["/dev/zero", "is a character device, not a regular file"],
    ["FIFO", "is a FIFO, not a regular file"],
    ["directory", "is a directory, not a regular file"],
  ])("--session %s: one stderr line, nothing on stdout, exit 1", async (kind, reason) => {
    const home = tempDir("zi-e2e-session-special-");
    const file = kind === "/dev/zero" ? kind : join(home, kind === "FIFO" ? "fifo.jsonl" : "dir.jsonl");
    if (kind === "FIFO") mkfifo(file);
    if (kind === "directory") mkdirSync(file);
    const zi = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--session", file] });
    expect((await zi.exited).code).toBe(1);
    expect(zi.stdoutBytes).toBe(0);
    expect(zi.stderr).toBe(`zi: cannot start: session file ${file} ${reason}\n`);
  });

  it("--faux-script naming a FIFO: one stderr line, exit 1", async () => {
    const home = tempDir("zi-e2e-script-fifo-");
    mkfifo(join(home, "script.json"));
    const zi = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--no-session", "--faux-script", join(home, "script.json")] });
    expect((await zi.exited).code).toBe(1);
    expect(zi.stdoutBytes).toBe(0);
    expect(zi.stderr).toBe(`zi: cannot start: faux script ${join(home, "script.json")} is a FIFO, not a regular file\n`);
  });
});
