const SPECIAL = /[.+^$()|\\]/;

/**
 * A small glob matcher (Node 20 has no fs.glob, and path.matchesGlob is experimental there).
 * Supports `*` (within one path segment), `**` (any number of segments), `?`, `[abc]`/`[!abc]`
 * and nested `{a,b}`. Paths use "/" separators. A pattern without "/" is matched against the
 * base name at any depth (`*.ts` finds every TypeScript file), like ripgrep's and fd's globs.
 */
export class GlobMatcher {
  private readonly regex: RegExp;
  /** The pattern with "\\" as "/" and without a leading "./". */
  readonly normalized: string;
  /** True when the pattern has no "/": it is matched against base names at any depth. */
  readonly baseNameOnly: boolean;

  constructor(readonly pattern: string) {
    const normalized = pattern.replace(/\\/g, "/").replace(/^\.\//, "");
    this.normalized = normalized;
    this.baseNameOnly = !normalized.includes("/");
    const source = GlobMatcher.translate(normalized);
    try {
      this.regex = new RegExp(`^${source}$`);
    } catch {
      throw new Error(`Invalid glob pattern "${pattern}".`);
    }
  }

  /** `relativePath` is relative to the search root, with "/" separators. */
  matches(relativePath: string): boolean {
    if (this.baseNameOnly) return this.regex.test(relativePath.slice(relativePath.lastIndexOf("/") + 1));
    return this.regex.test(relativePath);
  }

  private static translate(glob: string): string {
    let out = "";
    let braces = 0;
    for (let i = 0; i < glob.length; i++) {
      const c = glob[i]!;
      if (c === "*") {
        if (glob[i + 1] === "*") {
          const atSegmentStart = i === 0 || glob[i - 1] === "/";
          i++;
          if (atSegmentStart && glob[i + 1] === "/") {
            i++;
            out += "(?:.*/)?"; // "**/" matches zero or more whole directories
          } else {
            out += ".*";
          }
        } else {
          out += "[^/]*";
        }
      } else if (c === "?") {
        out += "[^/]";
      } else if (c === "[") {
        const close = glob.indexOf("]", i + 2);
        if (close < 0) {
          out += "\\[";
          continue;
        }
        let body = glob.slice(i + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, "\\\\")}]`;
        i = close;
      } else if (c === "{") {
        braces++;
        out += "(?:";
      } else if (c === "}" && braces > 0) {
        braces--;
        out += ")";
      } else if (c === "," && braces > 0) {
        out += "|";
      } else {
        out += SPECIAL.test(c) || c === "{" || c === "}" || c === "]" ? `\\${c}` : c;
      }
    }
    // An unclosed "{" would leave an unbalanced group: treat the pattern as invalid.
    if (braces > 0) throw new Error(`Invalid glob pattern "${glob}": unclosed "{".`);
    return out;
  }
}
