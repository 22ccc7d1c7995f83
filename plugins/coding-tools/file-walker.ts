import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

export interface WalkedFile {
  absolute: string;
  /** Relative to the walk's root, "/"-separated. */
  relative: string;
}

/** Directories no search wants: VCS internals and installed dependencies. */
const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([".git", "node_modules"]);

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Depth-first walk over the regular files under a directory, in sorted order so results are
 * stable. Symlinks to files are followed; symlinks to directories are not (they can loop).
 * Unreadable directories are skipped silently: a search reports what it could see.
 */
export class FileWalker {
  constructor(private readonly signal: AbortSignal) {}

  async *walk(root: string, relativePrefix = ""): AsyncGenerator<WalkedFile> {
    let entries: Dirent[];
    try {
      entries = await readdir(root, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort(byName);
    for (const entry of entries) {
      if (this.signal.aborted) throw new Error("The search was interrupted.");
      const absolute = join(root, entry.name);
      const relative = relativePrefix === "" ? entry.name : `${relativePrefix}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) yield* this.walk(absolute, relative);
      } else if (entry.isFile()) {
        yield { absolute, relative };
      } else if (entry.isSymbolicLink() && (await stat(absolute).catch(() => undefined))?.isFile()) {
        yield { absolute, relative };
      }
    }
  }
}
