import { FileWalker } from "./file-walker.js";
import type { GlobMatcher } from "./glob-matcher.js";
import { type ContentMatch, type ContentQuery, type SearchBackend, grepRegExp } from "./search-backend.js";
import { readSearchableText } from "./searchable-text.js";
/** Files read at once: enough to keep the thread pool busy, few enough to bound memory (each up to 32 MiB). */
const CONCURRENT_READS = 16;
/** Lookaround can see past a line's end in the whole text, so such patterns skip the whole-file test. */
const LOOKAROUND = /\(\?<?[=!]/;

/** The search without ripgrep: the same files (FileWalker applies ripgrep's ignore rule), matched in Node. */
export class NodeSearch implements SearchBackend {
  readonly kind = "node";

  async listFiles(root: string, glob: GlobMatcher, signal: AbortSignal, onFile: (relative: string) => void): Promise<void> {
    for (const file of await new FileWalker(signal).list(root)) if (glob.matches(file.relative)) onFile(file.relative);
  }

  async searchContents(query: ContentQuery, onMatch: (match: ContentMatch) => void): Promise<void> {
    const { root, rootIsFile, glob, signal } = query;
    const files = rootIsFile ? [{ absolute: root, relative: "" }] : await new FileWalker(signal).list(root);
    // As with rg, a file named as the root is searched whatever the glob says.
    const candidates = glob && !rootIsFile ? files.filter((file) => glob.matches(file.relative)) : files;
    const line = grepRegExp(query.pattern, query.literal, query.ignoreCase);
    const whole = LOOKAROUND.test(query.pattern) && !query.literal ? undefined : grepRegExp(query.pattern, query.literal, query.ignoreCase, "m");
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < candidates.length) {
        if (signal.aborted) throw new Error("The search was interrupted.");
        const file = candidates[next++]!;
        const text = await readSearchableText(file.absolute);
        if (text === undefined) continue;
        // One pass over the whole text first: most files do not match, and they are never split.
        // A CR before LF would stop "$" from matching at a line's end, so such files are split anyway.
        if (whole && !text.includes("\r") && !whole.test(text)) continue;
        NodeSearch.matchLines(text, line, query.perFileLimit, (number, content) => onMatch({ relative: file.relative, line: number, text: content }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_READS, candidates.length) }, worker));
  }

  private static matchLines(text: string, regex: RegExp, perFileLimit: number, onLine: (line: number, content: string) => void): void {
    let found = 0;
    let start = 0;
    for (let number = 1; start < text.length; number++) {
      const newline = text.indexOf("\n", start);
      const end = newline < 0 ? text.length : newline;
      const content = text.charCodeAt(end - 1) === 13 && end > start ? text.slice(start, end - 1) : text.slice(start, end);
      if (regex.test(content)) {
        onLine(number, content);
        if (++found >= perFileLimit) return;
      }
      if (newline < 0) return;
      start = newline + 1;
    }
  }
}
