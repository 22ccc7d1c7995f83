import type { GlobMatcher } from "./glob-matcher.js";

/** One matching line; `relative` is "/"-separated and relative to the search root ("" when the root is the file). */
export interface ContentMatch {
  relative: string;
  line: number;
  text: string;
}

export interface ContentQuery {
  root: string;
  rootIsFile: boolean;
  /** A JavaScript regular expression (already checked to compile), or literal text. */
  pattern: string;
  literal: boolean;
  ignoreCase: boolean;
  glob?: GlobMatcher;
  /** The permission rules' test of a root-relative path (SearchRoot.admits): a file it refuses is not searched or shown. */
  admits?: (relative: string) => boolean;
  /** Matches kept per file: no file needs more than the whole result's limit plus one. */
  perFileLimit: number;
  signal: AbortSignal;
}

/**
 * How `find` and `grep` reach the files: ripgrep when it is installed, a Node walk otherwise. Both
 * apply the same ignore rule (IgnoreRules is ripgrep's rule). Files are listed in any order (find
 * sorts); matches are reported in path order (`comparePaths`, lines ascending), so grep can stop the
 * search as soon as it has what its limit needs: `onMatch` returns false then.
 */
export interface SearchBackend {
  readonly kind: "ripgrep" | "node";
  /** Root-relative paths of the searchable files under `root` that `glob` matches and `admits` lets through. */
  listFiles(root: string, glob: GlobMatcher, signal: AbortSignal, onFile: (relative: string) => void, admits?: (relative: string) => boolean): Promise<void>;
  searchContents(query: ContentQuery, onMatch: (match: ContentMatch) => boolean): Promise<void>;
}

/**
 * Sorted depth-first order with names compared by code point (UTF-8 byte order, ripgrep's `--sort
 * path`): "/" sorts before every other character, so a directory's entries come right after its name
 * (`a/b` before `a.txt`).
 */
export function comparePaths(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) return codePointRank(ca) - codePointRank(cb);
  }
  return a.length - b.length;
}

/** A UTF-16 unit's rank in code point order: "/" first, surrogates (astral code points) after U+FFFF. */
function codePointRank(unit: number): number {
  if (unit === 47) return -1;
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/**
 * The JavaScript form of a grep pattern; `flags` adds to the case flag. Unicode mode first (code
 * points, as ripgrep matches); a pattern only the older syntax accepts (escapes such as `\"` or `\:`)
 * is compiled without it.
 */
export function grepRegExp(pattern: string, literal: boolean, ignoreCase: boolean, flags = ""): RegExp {
  const source = literal ? pattern.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&") : pattern;
  const rest = `${ignoreCase ? "i" : ""}${flags}`;
  try {
    return new RegExp(source, `u${rest}`);
  } catch {
    return new RegExp(source, rest);
  }
}
