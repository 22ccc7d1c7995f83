import { clipUtf8 } from "../../core/wire/utf8-clip.js";

export interface EditSummary {
  replacements: number;
  /** 1-based line (in the edited file) where the first replacement starts. */
  firstChangedLine: number;
  linesRemoved: number;
  linesAdded: number;
  /** A short unified-style hunk of the first replacement, at most 4 KiB. */
  diff: string;
}

const MAX_DIFF_BYTES = 4096;

const linesOf = (text: string): string[] => {
  if (text === "") return [];
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
};

/** Summarises an exact-text replacement without a general diff algorithm: the hunk is old vs new text. */
export function summariseEdit(original: string, firstIndex: number, oldText: string, newText: string, replacements: number): EditSummary {
  let firstChangedLine = 1;
  for (let i = original.indexOf("\n"); i >= 0 && i < firstIndex; i = original.indexOf("\n", i + 1)) firstChangedLine++;
  const removed = linesOf(oldText);
  const added = linesOf(newText);
  const hunk = [`@@ line ${firstChangedLine} @@`, ...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)];
  if (replacements > 1) hunk.push(`(${replacements - 1} more identical replacement${replacements > 2 ? "s" : ""})`);
  const clipped = clipUtf8(hunk.join("\n"), MAX_DIFF_BYTES);
  return {
    replacements,
    firstChangedLine,
    linesRemoved: removed.length * replacements,
    linesAdded: added.length * replacements,
    diff: clipped.truncated ? `${clipped.text}\n…` : clipped.text,
  };
}
