import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BashTool } from "../../../plugins/coding-tools/bash.tool.js";
import { isAlive, makeContext, makeTempDir, textOf, waitFor } from "../../support/tool-test-kit.js";

/** The output part of a result, without the trailing "[...]" notes. */
const bodyOf = (text: string): string => (text.includes("\n\n[") ? text.slice(0, text.indexOf("\n\n[")) : text);

const pidsIn = (text: string, label: string): number[] =>
  [...text.matchAll(new RegExp(`${label}:(\\d+)`, "g"))].map((m) => Number(m[1]));

describe("BashTool", () => {
  let dir: string;
  let logDir: string;
  let cleanup: () => void;
  let tool: BashTool;
  const strays: number[] = [];
  const strayGroups: number[] = [];

  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
    logDir = join(dir, "logs");
    tool = new BashTool(logDir);
  });
  afterEach(() => {
    for (const pid of [...strays.splice(0), ...strayGroups.splice(0).map((pgid) => -pgid)]) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    cleanup();
  });

  it("runs in cwd and returns stdout and stderr with exit code 0", async () => {
    const result = await tool.execute({ command: "pwd; echo out; echo err >&2" }, makeContext(dir));
    const text = textOf(result);
    expect(text).toContain(dir);
    expect(text).toContain("out");
    expect(text).toContain("err");
    expect(result.isError).toBe(false);
    expect(result.details).toMatchObject({ exitCode: 0, timedOut: false, interrupted: false, truncated: false });
    expect(existsSync(logDir)).toBe(false);
  });

  it("reports a non-zero exit as an error with its code", async () => {
    const result = await tool.execute({ command: "echo partial; exit 3" }, makeContext(dir));
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ exitCode: 3 });
    expect(textOf(result)).toContain("partial");
    expect(textOf(result)).toContain("exited with code 3");
  });

  it("says so when there is no output", async () => {
    const result = await tool.execute({ command: "true" }, makeContext(dir));
    expect(textOf(result)).toBe("(no output)");
  });

  it("gives the command an empty stdin instead of Zi's", async () => {
    const result = await tool.execute({ command: "cat; echo done" }, makeContext(dir));
    expect(textOf(result)).toBe("done");
  });

  it("streams partial output before the command ends", async () => {
    // The command waits for a file the test only creates once it has seen "first" in an update:
    // without streaming it would hang until its timeout.
    const context = makeContext(dir, (partial) => {
      if (textOf(partial).includes("first")) writeFileSync(join(dir, "go"), "");
    });
    const result = await tool.execute(
      { command: "echo first; while [ ! -f go ]; do sleep 0.02; done; echo second", timeoutMs: 20_000 },
      context,
    );
    expect(result.details).toMatchObject({ exitCode: 0, timedOut: false });
    expect(textOf(result)).toBe("first\nsecond");
    expect(textOf(context.updates[0]!)).toContain("first");
    expect(textOf(context.updates[0]!)).not.toContain("second");
    const seen = context.updates.length;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(context.updates).toHaveLength(seen); // nothing streams after the result
  });

  it("kills the whole process tree when the signal aborts", async () => {
    const context = makeContext(dir, (partial) => {
      const text = textOf(partial);
      if (pidsIn(text, "child").length === 2 && pidsIn(text, "shell").length === 1) context.controller.abort();
    });
    const result = await tool.execute(
      { command: 'sleep 30 & echo "child:$!"; sleep 30 & echo "child:$!"; echo "shell:$$"; wait' },
      context,
    );
    const text = textOf(result);
    const pids = [...pidsIn(text, "child"), ...pidsIn(text, "shell")];
    strays.push(...pids);
    expect(pids).toHaveLength(3);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ interrupted: true, timedOut: false });
    expect(text).toContain("interrupted");
    expect(await waitFor(() => pids.every((pid) => !isAlive(pid)))).toBe(true);
  });

  it("escalates to SIGKILL for a tree that ignores SIGTERM", async () => {
    const context = makeContext(dir, (partial) => {
      if (pidsIn(textOf(partial), "child").length === 1) context.controller.abort();
    });
    const result = await tool.execute({ command: "trap '' TERM; sleep 30 & echo \"child:$!\"; wait" }, context);
    const pids = pidsIn(textOf(result), "child");
    strays.push(...pids);
    expect(pids).toHaveLength(1);
    expect(result.details).toMatchObject({ interrupted: true });
    expect(await waitFor(() => !isAlive(pids[0]!))).toBe(true);
  });

  it("kills the tree on timeout", async () => {
    const result = await tool.execute({ command: 'sleep 30 & echo "child:$!"; wait', timeoutMs: 300 }, makeContext(dir));
    const pids = pidsIn(textOf(result), "child");
    strays.push(...pids);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ timedOut: true, interrupted: false, exitCode: null });
    expect(textOf(result)).toContain("timed out after 300 ms");
    expect(pids).toHaveLength(1);
    expect(await waitFor(() => !isAlive(pids[0]!))).toBe(true);
  });

  it("takes the timeout in seconds, as models write it", async () => {
    const result = await tool.execute({ command: 'sleep 30 & echo "child:$!"; wait', timeout: 0.3 }, makeContext(dir));
    strays.push(...pidsIn(textOf(result), "child"));
    expect(result.details).toMatchObject({ timedOut: true });
    expect(textOf(result)).toContain("timed out after 300 ms");
  });

  it("does not wait for background jobs that keep the output pipe open", async () => {
    const result = await tool.execute({ command: '(sleep 60; echo late) & echo "group:$$"' }, makeContext(dir));
    const [group] = pidsIn(textOf(result), "group");
    if (group) strayGroups.push(group);
    expect(result.details).toMatchObject({ exitCode: 0, timedOut: false });
    expect(textOf(result)).toMatch(/^group:\d+$/);
  });

  it("bounds the returned output and keeps everything in the log file", async () => {
    const result = await tool.execute({ command: "seq 1 100000" }, makeContext(dir));
    const text = textOf(result);
    const details = result.details as { fullOutputPath: string; truncated: boolean; totalLines: number };
    expect(details.truncated).toBe(true);
    expect(details.totalLines).toBe(100000);
    const body = bodyOf(text);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(50 * 1024);
    expect(body.split("\n").length).toBeLessThanOrEqual(2000);
    expect(body.endsWith("\n99999\n100000")).toBe(true);
    expect(text).toContain(details.fullOutputPath);
    expect(details.fullOutputPath.startsWith(logDir)).toBe(true);
    const expected = Array.from({ length: 100000 }, (_, i) => `${i + 1}\n`).join("");
    expect(readFileSync(details.fullOutputPath, "utf8")).toBe(expected);
  });

  it("applies the line bound to many short lines", async () => {
    const result = await tool.execute({ command: "seq 1 5000" }, makeContext(dir));
    const text = textOf(result);
    const body = bodyOf(text);
    expect(body.split("\n")).toHaveLength(2000);
    expect(body.startsWith("3001\n")).toBe(true);
    expect(text).toContain("last 2000 of 5000 lines");
    expect(readdirSync(logDir)).toHaveLength(1);
  });

  it("never splits a multi-byte character when it cuts output", async () => {
    const result = await tool.execute({ command: "for i in $(seq 1 30000); do printf '€'; done; printf '😀%.0s' $(seq 1 5000)" }, makeContext(dir));
    const text = textOf(result);
    const body = bodyOf(text);
    expect(result.details).toMatchObject({ truncated: true, totalBytes: 110_000 });
    expect(body).not.toContain("\uFFFD");
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(50 * 1024);
    expect(body.endsWith("😀")).toBe(true);
    const log = readFileSync((result.details as { fullOutputPath: string }).fullOutputPath, "utf8");
    expect(log).toBe("€".repeat(30000) + "😀".repeat(5000));
  });

  it("refuses to start when the signal is already aborted or cwd is missing", async () => {
    const aborted = makeContext(dir);
    aborted.controller.abort();
    await expect(tool.execute({ command: "echo hi" }, aborted)).rejects.toThrow(/interrupted/);
    await expect(tool.execute({ command: "echo hi" }, makeContext(join(dir, "missing")))).rejects.toThrow(/does not exist/);
  });

  it("rejects bad arguments", async () => {
    await expect(tool.execute({ command: "" }, makeContext(dir))).rejects.toThrow(/"command" must not be empty/);
    await expect(tool.execute({ command: "true", timeoutMs: -5 }, makeContext(dir))).rejects.toThrow(/"timeoutMs"/);
    await expect(tool.execute({ command: "true", timeout: 0 }, makeContext(dir))).rejects.toThrow(/"timeout" must be a number of seconds/);
    await expect(tool.execute({ command: "true", timeout: 5000 }, makeContext(dir))).rejects.toThrow(/at most 3600/);
    await expect(tool.execute({ command: "true", timeout: 1, timeoutMs: 1000 }, makeContext(dir))).rejects.toThrow(/not both/);
  });
});
