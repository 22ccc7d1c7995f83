import { join } from "node:path";
import type { ContentMatch } from "./search-backend.js";
import { linesOf, readSearchableText } from "./searchable-text.js";

/** One line of grep's output: a match ("path:12: text") or a context line ("path-11- text"). */
export interface GrepLine {
  relative: string;
  line: number;
  text: string;
  isMatch: boolean;
  /** A gap ("--") comes before this line: it does not continue the previous one. */
  gapBefore: boolean;
}

/**
 * Adds `context` lines before and after each match, read from the files after the search (so both
 * search paths get the same context). Overlapping and touching windows of one file merge into one
 * block. A file that can no longer be read keeps its match lines alone.
 */
export async function withContext(matches: readonly ContentMatch[], root: string, context: number): Promise<GrepLine[]> {
  if (context === 0) return matches.map((match) => ({ ...match, isMatch: true, gapBefore: false }));
  const out: GrepLine[] = [];
  let previous: GrepLine | undefined;
  const push = (line: Omit<GrepLine, "gapBefore">): void => {
    const continues = previous !== undefined && previous.relative === line.relative && previous.line + 1 === line.line;
    const entry = { ...line, gapBefore: previous !== undefined && !continues };
    out.push(entry);
    previous = entry;
  };
  for (let i = 0; i < matches.length; ) {
    const file = matches[i]!.relative;
    let end = i;
    while (end < matches.length && matches[end]!.relative === file) end++;
    const group = matches.slice(i, end);
    i = end;
    const text = await readSearchableText(file === "" ? root : join(root, file));
    if (text === undefined) {
      for (const match of group) push({ ...match, isMatch: true });
      continue;
    }
    const lines = linesOf(text);
    const matched = new Set(group.map((match) => match.line));
    let shownUpTo = 0;
    for (const match of group) {
      const from = Math.max(match.line - context, shownUpTo + 1, 1);
      const to = Math.min(match.line + context, lines.length);
      for (let line = from; line <= to; line++) {
        push({ relative: file, line, text: lines[line - 1] ?? "", isMatch: matched.has(line) });
      }
      shownUpTo = Math.max(shownUpTo, to);
    }
  }
  return out;
}
