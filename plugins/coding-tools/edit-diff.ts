import { structuredPatch } from "diff";
import { clipUtf8 } from "../../core/wire/utf8-clip.js";

export interface EditSummary {
  replacements: number;
  /** 1-based line where the first change starts (the same in the old and the new file). */
  firstChangedLine: number;
  linesRemoved: number;
  linesAdded: number;
  /** A unified diff (3 lines of context) of the whole change, at most 16 KiB. */
  diff: string;
}

/** A replaced range of the original text and what replaced it. */
export interface AppliedRange {
  start: number;
  end: number;
  replacement: string;
}

const MAX_DIFF_BYTES = 16 * 1024;
const CONTEXT = 3;
/** Beyond this many changed lines the diff gives up (jsdiff's own bound) and only counts are given. */
const MAX_EDIT_LENGTH = 20_000;

const toLf = (text: string): string => text.replace(/\r\n/g, "\n");
const lineOf = (text: string, index: number): number => {
  let line = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
};
/** Index of the start of 0-based line `line` (or the text's end). */
const lineStart = (text: string, line: number): number => {
  let index = 0;
  for (let i = 0; i < line; i++) {
    const next = text.indexOf("\n", index);
    if (next < 0) return text.length;
    index = next + 1;
  }
  return index;
};

/**
 * Summarises applied ranges (sorted, non-overlapping) as a unified diff. Only the span of lines
 * the ranges touch, plus context, is diffed, so a small edit of a large file stays cheap.
 */
export function summariseEdit(path: string, original: string, edited: string, ranges: readonly AppliedRange[]): EditSummary {
  const first = ranges[0]!;
  const last = ranges[ranges.length - 1]!;
  const firstLine = lineOf(original, first.start);
  const spanStartLine = Math.max(0, firstLine - CONTEXT);
  const spanStart = lineStart(original, spanStartLine);
  const spanEnd = lineStart(original, lineOf(original, Math.max(last.end - 1, last.start)) + CONTEXT + 1);
  const growth = edited.length - original.length;
  const before = toLf(original.slice(spanStart, spanEnd));
  const after = toLf(edited.slice(spanStart, spanEnd + growth));
  const patch = structuredPatch(path, path, before, after, "", "", { context: CONTEXT, maxEditLength: MAX_EDIT_LENGTH });
  let linesRemoved = 0;
  let linesAdded = 0;
  const out = [`--- ${path}`, `+++ ${path}`];
  if (!patch) {
    out.push(`(the change is too large to show as a diff)`);
  } else {
    for (const hunk of patch.hunks) {
      const oldStart = hunk.oldStart + spanStartLine;
      const newStart = hunk.newStart + spanStartLine;
      out.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`);
      for (const line of hunk.lines) {
        if (line.startsWith("-")) linesRemoved++;
        else if (line.startsWith("+")) linesAdded++;
        out.push(line);
      }
    }
  }
  const clipped = clipUtf8(out.join("\n"), MAX_DIFF_BYTES);
  return {
    replacements: ranges.length,
    firstChangedLine: firstLine + 1,
    linesRemoved,
    linesAdded,
    diff: clipped.truncated ? `${clipped.text}\n…` : clipped.text,
  };
}
