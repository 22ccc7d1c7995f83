import { describe, expect, it } from "@jest/globals";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { RipgrepProcess } from "../../../plugins/coding-tools/ripgrep-process.js";
import { isAlive, waitFor } from "../../support/tool-test-kit.js";
import { sleep } from "../../support/tool-processes.js";

describe("RipgrepProcess", () => {
  it("hands over stdout line by line, also a last line without LF, and reports the exit code", async () => {
    const lines: string[] = [];
    const exit = await RipgrepProcess.run("/bin/sh", ["-c", "printf 'a\\nb\\nc'; exit 1"], new AbortController().signal, (line) => {
      lines.push(line.toString("utf8"));
      return true;
    });
    expect(lines).toEqual(["a", "b", "c"]);
    expect(exit.code).toBe(1);
  });

  it("kills its whole process group when interrupted", async () => {
    const controller = new AbortController();
    const pids: number[] = [];
    // A stand-in for rg that leaves a grandchild in its group: both must be gone after the interrupt.
    const running = RipgrepProcess.run("/bin/sh", ["-c", "sleep 30 & echo $!; echo $$; wait"], controller.signal, (line) => {
      pids.push(Number(line.toString("utf8")));
      if (pids.length === 2) controller.abort();
      return true;
    });
    await expect(running).rejects.toThrow(/interrupted/);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(await waitFor(() => !isAlive(pid))).toBe(true);
  });

  it("stops early when the handler says so", async () => {
    const lines: string[] = [];
    const exit = await RipgrepProcess.run("/bin/sh", ["-c", "echo one; echo two; sleep 30"], new AbortController().signal, (line) => {
      lines.push(line.toString("utf8"));
      return false;
    });
    expect(lines).toEqual(["one"]);
    expect(exit.code).toBe(0);
  });

  it("answers as soon as the handler stops it, and still kills the whole group", async () => {
    const pids: number[] = [];
    const exit = await RipgrepProcess.run("/bin/sh", ["-c", "sleep 30 & echo $!; echo $$; wait"], new AbortController().signal, (line) => {
      pids.push(Number(line.toString("utf8")));
      return pids.length < 2;
    });
    expect([exit.code, pids]).toEqual([0, [expect.any(Number), expect.any(Number)]]);
    for (const pid of pids) expect(await waitFor(() => !isAlive(pid))).toBe(true);
  });

  it("ends with the handler's error, not a crash, when a record cannot be read", async () => {
    const running = RipgrepProcess.run("/bin/sh", ["-c", "echo '{broken'; sleep 30"], new AbortController().signal, (line) => JSON.parse(line.toString("utf8")) as boolean);
    await expect(running).rejects.toThrow(SyntaxError);
  });

  it("reads nothing before readFrom settles, then everything in order, in the cwd it was given", async () => {
    const lines: string[] = [];
    let release!: () => void;
    const readFrom = new Promise<void>((resolve) => (release = resolve));
    const doneFile = `/tmp/zi-rg-gated-${process.pid}`;
    // The child has printed and ended long before it is read: its output waits in the pipe.
    const running = RipgrepProcess.run("/bin/sh", ["-c", `pwd; echo two; : > ${doneFile}`], new AbortController().signal, (line) => lines.push(line.toString("utf8")) > 0, undefined, { cwd: "/tmp", readFrom });
    expect(await waitFor(() => existsSync(doneFile))).toBe(true);
    await sleep(100);
    expect(lines).toEqual([]);
    rmSync(doneFile);
    release();
    expect((await running).code).toBe(0);
    expect(lines).toEqual(["/tmp", "two"]);
  });

  it("ends when interrupted before its output was ever read, and kills the child", async () => {
    const controller = new AbortController();
    const pidFile = `/tmp/zi-rg-unread-${process.pid}`;
    const running = RipgrepProcess.run("/bin/sh", ["-c", `echo $$ > ${pidFile}; yes`], controller.signal, () => true, undefined, { readFrom: new Promise<void>(() => undefined) });
    expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "")).toBe(true);
    const pid = Number(readFileSync(pidFile, "utf8"));
    controller.abort();
    await expect(running).rejects.toThrow(/interrupted/);
    expect(await waitFor(() => !isAlive(pid))).toBe(true);
    rmSync(pidFile);
  });

  it("hands over nothing of a child that ended before its turn when the run is interrupted before the turn", async () => {
    const controller = new AbortController();
    const lines: string[] = [];
    let release!: () => void;
    const doneFile = `/tmp/zi-rg-ended-${process.pid}`;
    const running = RipgrepProcess.run("/bin/sh", ["-c", `echo one; : > ${doneFile}`], controller.signal, (line) => lines.push(line.toString("utf8")) > 0, undefined, {
      readFrom: new Promise<void>((resolve) => (release = resolve)),
    });
    expect(await waitFor(() => existsSync(doneFile))).toBe(true);
    await sleep(100); // the child has ended and its end has been seen
    controller.abort();
    release();
    await expect(running).rejects.toThrow(/interrupted/);
    expect(lines).toEqual([]);
    rmSync(doneFile);
  });
});
