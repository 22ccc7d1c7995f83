import { isUtf8 } from "node:buffer";
import { readSync } from "node:fs";
import { entryProblem } from "./journal-entry-guard.js";
import type { JournalEntry } from "./journal-types.js";
import { MAX_STORED_JSON_DEPTH, parseJson } from "../wire/json-depth.js";

const CHUNK_BYTES = 1 << 20;
const LF = 0x0a;

/** A line of the journal that is not a valid entry, with its exact bytes (for the set-aside file). */
export interface DamagedLine {
  lineNo: number;
  /** Byte offset of the line in the journal. */
  offset: number;
  problem: string;
  /** The final line, without its LF and not JSON: the one kind of line a crash tears. */
  torn: boolean;
  bytes: Buffer;
}

export interface LoadedJournal {
  entries: JournalEntry[];
  /** Complete lines that are not valid entries: skipped, left in the journal, copied aside. */
  damaged: DamagedLine[];
  /** A torn final line (no LF, not JSON), to copy aside and then cut; null if none. */
  torn: DamagedLine | null;
  /** The last line is JSON but lacks its LF: write one before the next append. */
  missingNewline: boolean;
}

interface Line {
  bytes: Buffer;
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
 * the file as a single string. The repair rules (docs/journal.md):
 * - the first line must be a valid `session` header, otherwise the file is rejected;
 * - a complete line (ending in LF) that is not a valid entry (invalid UTF-8, not JSON, an entry
 *   type this version does not know) is skipped; it is never removed from the journal;
 * - only the final line can be torn (each entry is one write): without its LF and not JSON, it is
 *   reported as torn, for the caller to copy aside and cut; JSON without its LF is kept (an LF is
 *   added), and judged like any complete line.
 */
export function loadJournal(fd: number, maxBytes: number): LoadedJournal {
  const entries: JournalEntry[] = [];
  const damaged: DamagedLine[] = [];
  let lineNo = 0;
  let last: ParsedLine | null = null;

  readLines(fd, maxBytes, (line) => {
    lineNo++;
    // The previous line is now known not to be the last one: only the last may be torn.
    if (last && !last.entry) damaged.push(damagedLine(last, lineNo - 1, false));
    last = parseLine(line, lineNo === 1);
    if (lineNo === 1 && !last.entry) throw new Error(`the first line is not a session header (${last.problem})`);
    if (last.entry) entries.push(last.entry);
  });

  const tail = last as ParsedLine | null;
  if (!tail) throw new Error("the file is empty");
  let torn: DamagedLine | null = null;
  if (!tail.entry) {
    const isTorn = !tail.line.terminated && !tail.isJson;
    if (isTorn) torn = damagedLine(tail, lineNo, true);
    else damaged.push(damagedLine(tail, lineNo, false));
  }
  return { entries, damaged, torn, missingNewline: !tail.line.terminated && torn === null };
}

function damagedLine(parsed: ParsedLine, lineNo: number, torn: boolean): DamagedLine {
  // A copy: the line may be a view into a 1 MiB read chunk that should not stay alive.
  return { lineNo, offset: parsed.line.start, problem: parsed.problem, torn, bytes: Buffer.from(parsed.line.bytes) };
}

function parseLine(line: Line, isFirst: boolean): ParsedLine {
  // Decoding would turn invalid UTF-8 into U+FFFD silently, and the entry would no longer be what was written.
  if (!isUtf8(line.bytes)) return { line, entry: null, isJson: false, problem: "invalid UTF-8" };
  let value: unknown;
  try {
    value = parseJson(line.bytes.toString("utf8"), MAX_STORED_JSON_DEPTH);
  } catch {
    return { line, entry: null, isJson: false, problem: line.bytes.length === 0 ? "empty line" : "invalid JSON" };
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
function readLines(fd: number, maxBytes: number, visit: (line: Line) => void): void {
  let parts: Buffer[] = [];
  let partStart = 0;
  let position = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const read = readSync(fd, chunk, 0, CHUNK_BYTES, position);
    if (read === 0) break;
    if (position + read > maxBytes) throw new Error(`the file is larger than ${maxBytes} bytes`);
    const data = chunk.subarray(0, read);
    let from = 0;
    for (let lf = data.indexOf(LF); lf !== -1; lf = data.indexOf(LF, from)) {
      const start = parts.length > 0 ? partStart : position + from;
      // A line spanning chunks is joined once, when its LF arrives, so long lines cost linear time.
      const bytes = parts.length > 0 ? Buffer.concat([...parts, data.subarray(0, lf)]) : data.subarray(from, lf);
      parts = [];
      visit({ bytes, start, end: position + lf + 1, terminated: true });
      from = lf + 1;
    }
    if (from < read) {
      if (parts.length === 0) partStart = position + from;
      parts.push(data.subarray(from));
    }
    position += read;
  }
  if (parts.length > 0) {
    visit({ bytes: Buffer.concat(parts), start: partStart, end: position, terminated: false });
  }
}
