import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";
import { FileWalker } from "./file-walker.js";
import type { GlobMatcher } from "./glob-matcher.js";
import type { ContentMatch, ContentQuery, SearchBackend } from "./search-backend.js";
import { SearchWorkerPool } from "./search-worker-pool.js";

/** What a match line keeps of its text: what a result shows, and a unit more so the cut still shows. */
const KEEP_CHARS = CODING_TOOL_LIMITS.grepLineChars + 2;

/**
 * The search without ripgrep: the same files (FileWalker applies ripgrep's ignore rule), walked on
 * the main thread and matched in worker threads (SearchWorkerPool), in path order.
 */
export class NodeSearch implements SearchBackend {
  readonly kind = "node";

  async listFiles(root: string, glob: GlobMatcher, signal: AbortSignal, onFile: (relative: string) => void, admits?: (relative: string) => boolean): Promise<void> {
    for (const file of await new FileWalker(signal).list(root)) if (glob.matches(file.relative) && (!admits || admits(file.relative))) onFile(file.relative);
  }

  async searchContents(query: ContentQuery, onMatch: (match: ContentMatch) => boolean): Promise<void> {
    const { root, rootIsFile, glob, admits, signal } = query;
    const files = rootIsFile ? [{ absolute: root, relative: "" }] : await new FileWalker(signal).list(root);
    // As with rg, a file named as the root is searched whatever the glob says (the rules judged it as the call's path).
    const candidates = rootIsFile || (!glob && !admits) ? files : files.filter((file) => (!glob || glob.matches(file.relative)) && (!admits || admits(file.relative)));
    const spec = { pattern: query.pattern, literal: query.literal, ignoreCase: query.ignoreCase, perFileLimit: query.perFileLimit, keepChars: KEEP_CHARS };
    await SearchWorkerPool.shared().search(
      spec,
      candidates.map((file) => file.absolute),
      signal,
      (index, line, text) => onMatch({ relative: candidates[index]!.relative, line, text }),
    );
  }
}
