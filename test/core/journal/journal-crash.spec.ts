import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SessionJournal } from "../../../core/journal/session-journal.js";
import { captureStderr, tempDir, userMessage } from "../../fixtures/journal/journal-fixtures.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const child = join(root, "test", "fixtures", "journal", "append-loop.child.ts");

/** Runs the append loop in a child process and SIGKILLs it once `minAcked` appends returned. */
function appendUntilKilled(dir: string, minAcked: number): Promise<{ file: string; acked: number; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "./scripts/ts-node-esm.mjs", child, dir], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let file = "";
    let acked = 0;
    let buffered = "";
    let stderr = "";
    proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    proc.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith("file ")) file = line.slice(5);
        else if (line.startsWith("acked ")) acked = Number(line.slice(6));
      }
      if (acked >= minAcked && proc.exitCode === null && !proc.killed) proc.kill("SIGKILL");
    });
    proc.on("error", reject);
    proc.on("close", (code, signal) => {
      if (!file) reject(new Error(`child failed (${code}): ${stderr}`));
      else resolve({ file, acked, signal });
    });
  });
}

describe("SessionJournal after SIGKILL", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
  });
  afterEach(() => cleanup());

  it("opens cleanly with every acknowledged entry, and appends on a clean line", async () => {
    const { file, acked, signal } = await appendUntilKilled(dir, 100);
    expect(signal).toBe("SIGKILL");

    const { result: journal, lines: warnings } = captureStderr(() => SessionJournal.open(file));
    // At most the torn-tail notice; never a malformed line in the middle.
    expect(warnings.length).toBeLessThanOrEqual(1);
    for (const warning of warnings) expect(warning).toMatch(/torn last line/);

    const entries = [...journal.entries()];
    expect(entries[0]).toMatchObject({ type: "session", sessionId: "crash" });
    // Every append that returned was on disk; the kill may have landed after one more.
    expect(journal.messageCount).toBeGreaterThanOrEqual(acked);
    expect(journal.messageCount).toBeLessThanOrEqual(acked + 1);
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.parentId).toBe(entries[i - 1]!.id);

    const next = journal.append({ type: "message", message: userMessage("after the crash") });
    journal.close();
    const text = readFileSync(file, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    for (const line of text.slice(0, -1).split("\n")) expect(() => JSON.parse(line)).not.toThrow();

    const { result: again, lines: none } = captureStderr(() => SessionJournal.open(file));
    expect(none).toEqual([]);
    expect([...again.entries()]).toEqual([...entries, next]);
    again.close();
  });
});
