import { readFile, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

/**
 * The ignore files ripgrep reads, lowest precedence first: a repository's `.git/info/exclude`, then
 * `.gitignore`, `.ignore` and `.rgignore`. Within one kind a deeper directory wins over a shallower
 * one, and any `.ignore` wins over any `.gitignore` (ripgrep's order).
 */
const KINDS = [".gitignore", ".ignore", ".rgignore"] as const;
const EXCLUDE_RANK = 0;

/** Entries that no search ever enters: the repository's own database (`--glob '!.git'`). */
export const ALWAYS_SKIPPED = ".git";

interface Matcher {
  ig: Ignore;
  rank: number;
  depth: number;
  /** Prepended to a root-relative path to make it relative to this file's directory ("" for the root). */
  prefix: string;
  /** Root-relative directory this file governs ("" for the root and its ancestors). */
  scope: string;
}

const escapeGlob = (segment: string): string => segment.replace(/[\\*?[\]!#\s]/g, (c) => `\\${c}`);

/**
 * The one ignore rule of `grep`, `find` and `ls`: what `rg --hidden --glob '!.git' --no-require-git`
 * searches. Patterns are matched by the `ignore` package (gitignore semantics, case-sensitive like
 * git on Linux); this class only decides which files apply where and in what order.
 *
 * A search root given explicitly is searched even inside an ignored directory, as ripgrep does: the
 * ancestors' rules still apply to what lies below the root, but not to the directories on the way to it.
 */
export class IgnoreRules {
  private constructor(
    private readonly matchers: readonly Matcher[],
    private readonly depth: number,
  ) {}

  /** The rules in force for the entries of `root`: every ignore file from `/` down to `root` itself. */
  static async forRoot(root: string): Promise<IgnoreRules> {
    const chain: string[] = [];
    for (let dir = root; ; dir = dirname(dir)) {
      chain.unshift(dir);
      if (dirname(dir) === dir) break;
    }
    const matchers: Matcher[] = [];
    for (const [depth, dir] of chain.entries()) {
      const rel = relative(dir, root).split(sep).join("/");
      const prefix = rel === "" ? "" : `${rel}/`;
      // Re-include the directories between this file and the root: an explicit root is searched even
      // when an ancestor ignores it, while the ancestor's rules still match the paths below it.
      const reopen = rel === "" ? [] : rel.split("/").map((_, i, parts) => `!/${parts.slice(0, i + 1).map(escapeGlob).join("/")}/`);
      matchers.push(...(await IgnoreRules.load(dir, depth - chain.length + 1, prefix, "", reopen)));
    }
    return new IgnoreRules(ordered(matchers), 0);
  }

  /**
   * The rules for the entries of a subdirectory (`relative` to the root, "/"-separated), adding its own
   * files. `listed`: the directory's entries where the caller has read them, so that only the ignore
   * files it holds are opened (most directories hold none, and each missing file was an open that
   * failed, with an error built for it: a fifth of a Node `find`'s time).
   */
  async descend(absolute: string, relativePath: string, listed?: readonly { name: string }[]): Promise<IgnoreRules> {
    const depth = this.depth + 1;
    const own = await IgnoreRules.load(absolute, depth, "", relativePath, [], listed && ((name) => listed.some((entry) => entry.name === name)));
    return own.length === 0 ? new IgnoreRules(this.matchers, depth) : new IgnoreRules(ordered([...this.matchers, ...own]), depth);
  }

  /** Whether an entry (root-relative path, "/"-separated) is left out of searches. */
  ignores(relativePath: string, isDirectory: boolean): boolean {
    const base = relativePath.slice(relativePath.lastIndexOf("/") + 1);
    if (base === ALWAYS_SKIPPED) return true;
    const suffix = isDirectory ? "/" : "";
    // Highest precedence first; the first file with a rule matching the path decides.
    for (let i = this.matchers.length - 1; i >= 0; i--) {
      const matcher = this.matchers[i]!;
      let path: string;
      if (matcher.scope === "") path = matcher.prefix + relativePath;
      else if (relativePath.startsWith(`${matcher.scope}/`)) path = relativePath.slice(matcher.scope.length + 1);
      else continue;
      const result = matcher.ig.test(path + suffix);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }

  private static async load(dir: string, depth: number, prefix: string, scope: string, reopen: string[], holds?: (name: string) => boolean): Promise<Matcher[]> {
    const found: Matcher[] = [];
    const kinds = holds ? KINDS.filter(holds) : KINDS;
    const repository = !holds || holds(ALWAYS_SKIPPED);
    if (kinds.length === 0 && !repository) return found;
    const add = (text: string | undefined, rank: number): void => {
      if (text === undefined || text.trim() === "") return;
      found.push({ ig: ignore({ ignorecase: false }).add(text).add(reopen), rank, depth, prefix, scope });
    };
    const [exclude, ...texts] = await Promise.all([
      repository ? IgnoreRules.readExclude(dir) : undefined,
      ...kinds.map((name) => readFile(join(dir, name), "utf8").catch(() => undefined)),
    ]);
    add(exclude, EXCLUDE_RANK);
    texts.forEach((text, i) => add(text, KINDS.indexOf(kinds[i]!) + 1));
    return found;
  }

  /** `.git/info/exclude` of a repository rooted at `dir` (a `.git` directory; worktrees' `.git` files are not followed). */
  private static async readExclude(dir: string): Promise<string | undefined> {
    const git = await stat(join(dir, ALWAYS_SKIPPED)).catch(() => undefined);
    if (!git?.isDirectory()) return undefined;
    return readFile(join(dir, ALWAYS_SKIPPED, "info", "exclude"), "utf8").catch(() => undefined);
  }
}

/** Highest precedence last, so `ignores` can scan from the end. */
function ordered(matchers: Matcher[]): Matcher[] {
  return matchers.sort((a, b) => a.rank - b.rank || a.depth - b.depth);
}
