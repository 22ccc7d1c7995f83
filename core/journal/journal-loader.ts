import { readSync } from "node:fs";
import { entryProblem } from "./journal-entry-guard.js";
import type { JournalEntry } from "./journal-types.js";
import { MAX_STORED_JSON_DEPTH, parseJson } from "../kernel/json-depth.js";

const CHUNK_BYTES = 1 << 20;
const LF = 0x0a;

export interface LoadedJournal {
  entries: JournalEntry[];
  /** Bytes of the file worth keeping; anything after them is a torn tail to truncate. */
  keepBytes: number;
  /** The last entry is complete but lacks its LF: write one before the next append. */
  missingNewline: boolean;
  /** One-line, client-safe descriptions of what was dropped, for stderr. */
  warnings: string[];
}

interface Line {
  text: string;
  /** Byte offsets of the line in the file; `end` is past its LF. */
  start: number;
  end: number;
  terminated: boolean;
}

interface ParsedLine {
  line: Line;
  entry: JournalEntry | null;
  isJson: boolean;
  problem: string;
}

/**
 * Reads a journal once, in chunks, so resume costs one pass over the file and memory never holds
 * the file as a single string. Recovery rules (see docs of SessionJournal.open):
 * - the last line is the only one a crash can tear (each entry is one write): if it is not JSON it
 *   is cut off; if it lacks only its LF, it is kept and the LF is added;
 * - any other line that is not a valid entry (including JSON of an entry type this version does not
 *   know) is skipped and left in the file, with one summary warning;
 * - the first line must be a valid `session` header, otherwise the file is rejected.
 */
export class JournalLoader {
  static load(fd: number): LoadedJournal {
    const entries: JournalEntry[] = [];
    const skipped: { lineNo: number; problem: string }[] = [];
    const warnings: string[] = [];
    let lineNo = 0;
    let last: ParsedLine | null = null;

    JournalLoader.readLines(fd, (line) => {
      lineNo++;
      // The previous line is now known not to be the last one: only the last may be torn.
      if (last && !last.entry) skipped.push({ lineNo: lineNo - 1, problem: last.problem });
      last = JournalLoader.parse(line, lineNo === 1);
      if (lineNo === 1 && !last.entry) throw new Error(`the first line is not a session header (${last.problem})`);
      if (last.entry) entries.push(last.entry);
    });

    const tail = last as ParsedLine | null;
    if (!tail) throw new Error("the file is empty");
    let keepBytes = tail.line.end;
    if (tail.isJson) {
      if (!tail.entry) skipped.push({ lineNo, problem: tail.problem });
    } else {
      keepBytes = tail.line.start;
      warnings.push(`dropped a torn last line at line ${lineNo} (${tail.problem})`);
    }
    if (skipped.length > 0) {
      const first = skipped[0]!;
      warnings.push(`skipped ${skipped.length} malformed line(s); first at line ${first.lineNo} (${first.problem})`);
    }
    return { entries, keepBytes, missingNewline: tail.isJson && !tail.line.terminated, warnings };
  }

  private static parse(line: Line, isFirst: boolean): ParsedLine {
    let value: unknown;
    try {
      value = parseJson(line.text, MAX_STORED_JSON_DEPTH);
    } catch {
      return { line, entry: null, isJson: false, problem: line.text.length === 0 ? "empty line" : "invalid JSON" };
    }
    const problem = entryProblem(value);
    if (problem) return { line, entry: null, isJson: true, problem };
    const entry = value as JournalEntry;
    if (isFirst !== (entry.type === "session")) {
      return { line, entry: null, isJson: true, problem: isFirst ? "not a session header" : "a second session header" };
    }
    return { line, entry, isJson: true, problem: "" };
  }

  /** Calls `visit` for every line in order; the final line has `terminated: false` if the file lacks a last LF. */
  private static readLines(fd: number, visit: (line: Line) => void): void {
    let parts: Buffer[] = [];
    let partStart = 0;
    let position = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, position);
      if (read === 0) break;
      const data = chunk.subarray(0, read);
      let from = 0;
      for (let lf = data.indexOf(LF); lf !== -1; lf = data.indexOf(LF, from)) {
        const start = parts.length > 0 ? partStart : position + from;
        // A line spanning chunks is joined once, when its LF arrives, so long lines cost linear time.
        const text =
          parts.length > 0
            ? Buffer.concat([...parts, data.subarray(0, lf)]).toString("utf8")
            : data.toString("utf8", from, lf);
        parts = [];
        visit({ text, start, end: position + lf + 1, terminated: true });
        from = lf + 1;
      }
      if (from < read) {
        if (parts.length === 0) partStart = position + from;
        parts.push(data.subarray(from));
      }
      position += read;
    }
    if (parts.length > 0) {
      visit({ text: Buffer.concat(parts).toString("utf8"), start: partStart, end: position, terminated: false });
    }
  }
}
