import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { IgnoreRules } from "./ignore-rules.js";
import { comparePaths } from "./search-backend.js";

export interface WalkedFile {
  absolute: string;
  /** Relative to the walk's root, "/"-separated. */
  relative: string;
}

const byName = (a: Dirent, b: Dirent): number => comparePaths(a.name, b.name);

/**
 * The Node walk behind `find` and `grep` when ripgrep is not installed: the regular files under a
 * directory that ripgrep would search (IgnoreRules), in sorted depth-first order (`comparePaths`). Like ripgrep it
 * does not follow symlinks met on the way (a root given as a symlink is followed); unreadable
 * directories are skipped silently, since a search reports what it could see. Sibling directories
 * are read concurrently; the order of the result does not depend on which finishes first.
 */
export class FileWalker {
  constructor(private readonly signal: AbortSignal) {}

  async list(root: string): Promise<WalkedFile[]> {
    return this.walk(root, "", await IgnoreRules.forRoot(root));
  }

  private async walk(directory: string, relativePrefix: string, rules: IgnoreRules): Promise<WalkedFile[]> {
    if (this.signal.aborted) throw new Error("The search was interrupted.");
    let entries: Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch {
      return [];
    }
    entries.sort(byName);
    const parts = await Promise.all(
      entries.map(async (entry): Promise<WalkedFile[]> => {
        const absolute = join(directory, entry.name);
        const relative = relativePrefix === "" ? entry.name : `${relativePrefix}/${entry.name}`;
        if (entry.isDirectory()) {
          if (rules.ignores(relative, true)) return [];
          return this.walk(absolute, relative, await rules.descend(absolute, relative));
        }
        return entry.isFile() && !rules.ignores(relative, false) ? [{ absolute, relative }] : [];
      }),
    );
    return parts.flat();
  }
}
