import { GlobAutomaton, type GlobPiece } from "./glob-automaton.js";

const SPECIAL = /[.+^$()|\\]/;
/** What `?` and `*` match (one character of a segment), and what `**` matches (as the regex `.` did). */
const NOT_SLASH = (code: number): boolean => code !== 47;
const NOT_LINE_END = (code: number): boolean => code !== 10 && code !== 13 && code !== 0x2028 && code !== 0x2029;
/**
 * With at most this many `*` runs, V8's regex backtracks at most quadratically in a name's length, and
 * is faster than the automaton; a glob with more stars is run by the automaton (linear in the name).
 */
const REGEX_MAX_STARS = 2;

/** A parsed piece with the regular-expression source it stands for. */
type Piece = GlobPiece & { source: string };

/**
 * A small glob matcher (Node 20 has no fs.glob, and path.matchesGlob is experimental there).
 * Supports `*` (within one path segment), `**` (any number of segments), `?`, `[abc]`/`[!abc]`
 * and nested `{a,b}`. Paths use "/" separators. A pattern without "/" is matched against the
 * base name at any depth (`*.ts` finds every TypeScript file), like ripgrep's and fd's globs.
 * No glob can make a match slow: many stars are matched by a linear-time automaton.
 */
export class GlobMatcher {
  private readonly test: (text: string) => boolean;
  /** The pattern with "\\" as "/" and without a leading "./". */
  readonly normalized: string;
  /** True when the pattern has no "/": it is matched against base names at any depth. */
  readonly baseNameOnly: boolean;

  constructor(readonly pattern: string) {
    const normalized = pattern.replace(/\\/g, "/").replace(/^\.\//, "");
    this.normalized = normalized;
    this.baseNameOnly = !normalized.includes("/");
    const { pieces, stars } = GlobMatcher.parse(normalized, pattern);
    if (stars > REGEX_MAX_STARS) {
      const automaton = new GlobAutomaton(pieces);
      this.test = (text) => automaton.matches(text);
    } else {
      let regex: RegExp;
      try {
        regex = new RegExp(`^${pieces.map((piece) => piece.source).join("")}$`);
      } catch {
        throw new Error(`Invalid glob pattern "${pattern}".`);
      }
      this.test = (text) => regex.test(text);
    }
  }

  /** `relativePath` is relative to the search root, with "/" separators. */
  matches(relativePath: string): boolean {
    if (this.baseNameOnly) return this.test(relativePath.slice(relativePath.lastIndexOf("/") + 1));
    return this.test(relativePath);
  }

  private static parse(glob: string, pattern: string): { pieces: Piece[]; stars: number } {
    let stars = 0;
    const one = (source: string, test: (code: number) => boolean): Piece => ({ kind: "one", test, source });
    const many = (source: string, test: (code: number) => boolean): Piece => {
      stars++;
      return { kind: "many", test, source: `${source}*` };
    };
    // Braces nest: each open group keeps the sequence it interrupts and its alternatives so far.
    const open: { outer: Piece[]; options: Piece[][] }[] = [];
    let sequence: Piece[] = [];
    for (let i = 0; i < glob.length; i++) {
      const c = glob[i]!;
      if (c === "*") {
        if (glob[i + 1] === "*") {
          const atSegmentStart = i === 0 || glob[i - 1] === "/";
          i++;
          if (atSegmentStart && glob[i + 1] === "/") {
            i++;
            // "**/" matches zero or more whole directories
            const inner = [many(".", NOT_LINE_END), one("/", (code) => code === 47)];
            sequence.push({ kind: "optional", pieces: inner, source: `(?:${inner.map((piece) => piece.source).join("")})?` });
          } else {
            sequence.push(many(".", NOT_LINE_END));
          }
        } else {
          sequence.push(many("[^/]", NOT_SLASH));
        }
      } else if (c === "?") {
        sequence.push(one("[^/]", NOT_SLASH));
      } else if (c === "[") {
        const close = glob.indexOf("]", i + 2);
        if (close < 0) {
          sequence.push(GlobMatcher.literal(c));
          continue;
        }
        let body = glob.slice(i + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        const source = `[${body.replace(/\\/g, "\\\\")}]`;
        let single: RegExp;
        try {
          single = new RegExp(`^${source}$`);
        } catch {
          throw new Error(`Invalid glob pattern "${pattern}".`);
        }
        sequence.push(one(source, (code) => single.test(String.fromCharCode(code))));
        i = close;
      } else if (c === "{") {
        const group = { outer: sequence, options: [] as Piece[][] };
        sequence = [];
        group.options.push(sequence);
        open.push(group);
      } else if (c === "," && open.length > 0) {
        sequence = [];
        open[open.length - 1]!.options.push(sequence);
      } else if (c === "}" && open.length > 0) {
        const { outer, options } = open.pop()!;
        const source = `(?:${options.map((option) => option.map((piece) => piece.source).join("")).join("|")})`;
        outer.push({ kind: "either", options, source });
        sequence = outer;
      } else {
        sequence.push(GlobMatcher.literal(c));
      }
    }
    // An unclosed "{" would leave an unbalanced group: treat the pattern as invalid.
    if (open.length > 0) throw new Error(`Invalid glob pattern "${glob}": unclosed "{".`);
    return { pieces: sequence, stars };
  }

  private static literal(c: string): Piece {
    const code = c.charCodeAt(0);
    const source = SPECIAL.test(c) || c === "{" || c === "}" || c === "]" || c === "[" ? `\\${c}` : c;
    return { kind: "one", test: (unit) => unit === code, source };
  }
}
