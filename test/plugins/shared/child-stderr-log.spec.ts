import { describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { CHILD_STDERR_LIMITS, ChildStderrLog } from "../../../plugins/shared/child-stderr-log.js";

/** A log over a clock the test moves: the rate is counted per window of that clock, never of the wall. */
function log(limits = { linesPerSecond: 3, bytesPerSecond: 1000, maxLineBytes: 16 }, tailBytes = 0) {
  const lines: string[] = [];
  const clock = { now: 5000 };
  const stderr = new ChildStderrLog("MCP server flood", (line) => lines.push(line), tailBytes, limits, () => clock.now);
  return { lines, clock, stderr };
}

describe("ChildStderrLog: one child's stderr, bounded and rate-limited", () => {
  it("splits on LF bytes only, across chunks and inside UTF-8 characters, and strips a CR", () => {
    const { lines, stderr } = log();
    const text = Buffer.from("a\u2028b\r\nü");
    stderr.push(text.subarray(0, 3));
    stderr.push(Buffer.concat([text.subarray(3, text.length - 1)]));
    stderr.push(Buffer.concat([text.subarray(text.length - 1), Buffer.from("\n")]));
    expect(lines).toEqual(["a\u2028b", "ü"]);
  });

  it("passes linesPerSecond lines a window, then counts the rest and says how many it dropped", () => {
    const { lines, clock, stderr } = log();
    stderr.push(Buffer.from("1\n2\n3\n4\n5\n6\n"));
    expect(lines).toEqual(["1", "2", "3"]);
    clock.now += 1000;
    stderr.push(Buffer.from("7\n"));
    expect(lines).toEqual(["1", "2", "3", "[zi: 3 lines of MCP server flood stderr dropped]", "7"]);
    stderr.push(Buffer.from("8\n9\n10\n"));
    stderr.end();
    expect(lines.slice(5)).toEqual(["8", "9", "[zi: 1 line of MCP server flood stderr dropped]"]);
  });

  it("bounds the bytes of a window and clips a long line, never holding more than maxLineBytes of it", () => {
    const { lines, stderr } = log({ linesPerSecond: 100, bytesPerSecond: 44, maxLineBytes: 16 });
    stderr.push(Buffer.from("x".repeat(10)));
    for (let i = 0; i < 1000; i++) stderr.push(Buffer.from("y".repeat(1000)));
    stderr.push(Buffer.from("\nshort\nanother line\nmore\n"));
    stderr.end();
    expect(lines[0]).toBe(`${"x".repeat(10)}${"y".repeat(6)} [zi: line clipped]`);
    expect(lines.slice(1)).toEqual(["short", "[zi: 2 lines of MCP server flood stderr dropped]"]);
  });

  it("keeps the last tailBytes it read, dropped lines included, for a failure reason", () => {
    const { stderr } = log({ linesPerSecond: 1, bytesPerSecond: 1000, maxLineBytes: 100 }, 12);
    stderr.push(Buffer.from("first\nsecond\nlast words\n"));
    expect(stderr.tail).toBe("last words");
  });

  it("docs/mcp.md states the bounds as they are", () => {
    const doc = readFileSync("docs/mcp.md", "utf8").replace(/\s+/g, " ");
    const { maxLineBytes, linesPerSecond, bytesPerSecond } = CHILD_STDERR_LIMITS;
    expect(doc).toContain(`a line is clipped at ${maxLineBytes / 1024} KiB, and at most ${linesPerSecond} lines and ${bytesPerSecond / 1024} KiB a second are passed on`);
  });
});
