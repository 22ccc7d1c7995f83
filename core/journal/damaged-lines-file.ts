import { isUtf8 } from "node:buffer";
import { closeSync, constants, fdatasyncSync, fstatSync, openSync, writeSync } from "node:fs";
import { readBoundedFileSync } from "../config/bounded-file-reader.js";
import type { DamagedLine } from "./journal-loader.js";

/** Past this size the set-aside file is no longer read to skip lines it already holds. */
const MAX_DEDUP_READ_BYTES = 64 * 1024 * 1024;

// O_NOFOLLOW: a planted symlink must not redirect the copy into another file; O_NONBLOCK: a planted
// FIFO fails at once (ENXIO) instead of waiting for a reader.
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * `<journal>.damaged`: the lines journal repair sets aside, one JSON record per line:
 * `{ line, offset, problem, torn, base64, text? }` (`base64` holds the exact bytes, `text` the same
 * line when it is valid UTF-8). A line already recorded (same offset, same bytes) is not added again,
 * so resuming a journal with a damaged line twice records it once. Mode 0600, like the journal.
 */
export class DamagedLinesFile {
  readonly path: string;

  constructor(journalFile: string) {
    this.path = `${journalFile}.damaged`;
  }

  /** Appends the lines not yet recorded and syncs them; throws if they could not be written. */
  record(lines: readonly DamagedLine[]): void {
    const known = this.knownKeys();
    const records = lines
      .map((line) => ({ line, base64: line.bytes.toString("base64") }))
      .filter(({ line, base64 }) => !known.has(`${line.offset}:${base64}`))
      .map(({ line, base64 }) => {
        const record: Record<string, unknown> = { line: line.lineNo, offset: line.offset, problem: line.problem, torn: line.torn, base64 };
        if (isUtf8(line.bytes)) record.text = line.bytes.toString("utf8");
        return `${JSON.stringify(record)}\n`;
      });
    if (records.length === 0) return;
    const fd = openSync(this.path, APPEND_FLAGS, 0o600);
    try {
      if (!fstatSync(fd).isFile()) throw new Error(`${this.path} is not a regular file`);
      const bytes = Buffer.from(records.join(""), "utf8");
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  private knownKeys(): Set<string> {
    const keys = new Set<string>();
    const read = readBoundedFileSync(this.path, MAX_DEDUP_READ_BYTES);
    if (read.status !== "ok") return keys;
    for (const text of read.bytes.toString("utf8").split("\n")) {
      try {
        const { offset, base64 } = JSON.parse(text) as { offset?: unknown; base64?: unknown };
        if (typeof offset === "number" && typeof base64 === "string") keys.add(`${offset}:${base64}`);
      } catch {
        // a line we did not write, or a torn one: it cannot match anything
      }
    }
    return keys;
  }
}
