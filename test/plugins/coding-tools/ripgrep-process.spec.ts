import { describe, expect, it } from "@jest/globals";
import { RipgrepProcess } from "../../../plugins/coding-tools/ripgrep-process.js";
import { isAlive, waitFor } from "../../support/tool-test-kit.js";

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
});
