import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { sep } from "node:path";
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

  /** `rules`: the root's own, or for a subdirectory its parent's (its own files are added once it is read). */
  private async walk(directory: string, relativePrefix: string, inherited: IgnoreRules): Promise<WalkedFile[]> {
    if (this.signal.aborted) throw new Error("The search was interrupted.");
    let entries: Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch {
      return [];
    }
    const rules = relativePrefix === "" ? inherited : await inherited.descend(directory, relativePrefix, entries);
    entries.sort(byName);
    // Files are placed at once; only subdirectories wait for their walk (no promise per file).
    const base = directory.endsWith(sep) ? directory : directory + sep;
    const files: WalkedFile[] = [];
    const below: Promise<WalkedFile[]>[] = [];
    const at: number[] = [];
    for (const entry of entries) {
      const relative = relativePrefix === "" ? entry.name : `${relativePrefix}/${entry.name}`;
      if (entry.isDirectory()) {
        if (rules.ignores(relative, true)) continue;
        at.push(files.length);
        below.push(this.walk(base + entry.name, relative, rules));
      } else if (entry.isFile() && !rules.ignores(relative, false)) files.push({ absolute: base + entry.name, relative });
    }
    if (below.length === 0) return files;
    const walked = await Promise.all(below);
    const ordered: WalkedFile[] = [];
    let next = 0;
    walked.forEach((inner, i) => {
      while (next < at[i]!) ordered.push(files[next++]!);
      for (const file of inner) ordered.push(file);
    });
    while (next < files.length) ordered.push(files[next++]!);
    return ordered;
  }
}
