import { availableParallelism } from "node:os";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";
import type { GlobMatcher } from "./glob-matcher.js";
import { ALWAYS_SKIPPED } from "./ignore-rules.js";
import { RipgrepMatchRecords } from "./ripgrep-match-records.js";
import { RipgrepProcess } from "./ripgrep-process.js";
import type { ContentMatch, ContentQuery, SearchBackend } from "./search-backend.js";
import { type SearchPart, SearchTreeLayout } from "./search-tree-layout.js";

/** How many rg may search one tree at once, whatever the cores, and how small a tree stays one walk. */
export interface RipgrepParts {
  count: number;
  minFiles: number;
}
const MAX_PARTS = 4;
/** Below this many files another rg's start costs more than the walk it shares. */
const MIN_SPLIT_FILES = 400;

/** `rg --files --null` ends each path with NUL: a name may hold any other byte, LF included. */
const nulEnd = (data: Buffer, start: number): number => data.indexOf(0, start);

/**
 * ripgrep's own ignore handling is the rule (IgnoreRules mirrors it): hidden files included, `.git`
 * left out, ignore files honoured outside a repository too. No user config file, no user-wide git
 * excludes file (results must not depend on the user's settings), no warnings on stderr.
 */
const COMMON_ARGS = ["--no-config", "--hidden", "--glob", `!${ALWAYS_SKIPPED}`, "--no-require-git", "--no-ignore-global", "--no-messages"];
/**
 * A match line is printed up to this many bytes, then a preview mark: ripgrep's output stays bounded
 * whatever the files hold. 2,048 bytes hold more than the characters a result shows of a line
 * (`grepLineChars`, at most 4 bytes each), so the cut is never seen.
 */
const MAX_COLUMNS = 2048;
/** Characters rg's globs read as syntax; a name holding them is named with each escaped. */
const GLOB_SPECIAL = /[\\*?[\]{}]/g;

/**
 * The search with ripgrep: `rg --files` for find, `rg --sort path` for grep, parsed as a stream. A glob
 * without "/" becomes an rg file type (types, unlike rg's --glob, never override ignore rules);
 * every result is still checked against the glob here, so both backends filter with one matcher.
 */
export class RipgrepSearch implements SearchBackend {
  readonly kind = "ripgrep";

  /**
   * `parts`: how many rg may search one tree at once (one per core, at most MAX_PARTS) and the fewest
   * files worth a split; tests set them.
   */
  constructor(
    private readonly executable: string,
    private readonly parts: RipgrepParts = { count: Math.min(availableParallelism(), MAX_PARTS), minFiles: MIN_SPLIT_FILES },
  ) {}

  async listFiles(root: string, glob: GlobMatcher, signal: AbortSignal, onFile: (relative: string) => void, admits?: (relative: string) => boolean): Promise<void> {
    const prefix = root.endsWith("/") ? root : `${root}/`;
    const args = [...COMMON_ARGS, ...RipgrepSearch.typeFilter(glob), "--files", "--null", "--", root];
    const exit = await RipgrepProcess.run(
      this.executable,
      args,
      signal,
      (line) => {
        const relative = line.toString("utf8").slice(prefix.length);
        if (glob.matches(relative) && (!admits || admits(relative))) onFile(relative);
        return true;
      },
      nulEnd,
    );
    RipgrepSearch.check(exit.code, exit.stderr);
  }

  async searchContents(query: ContentQuery, onMatch: (match: ContentMatch) => boolean): Promise<void> {
    const { root, rootIsFile } = query;
    const parts = rootIsFile ? undefined : SearchTreeLayout.known(root)?.split(this.parts.count, this.parts.minFiles);
    if (parts) return this.searchInParts(query, parts, onMatch);
    // A file's records are held until rg is past it: a binary note after them drops them (RipgrepMatchRecords).
    const records = new RipgrepMatchRecords(root, rootIsFile, rootIsFile ? undefined : RipgrepSearch.fileTest(query.glob, query.admits), query.perFileLimit, onMatch);
    let ended = true;
    const exit = await RipgrepProcess.run(this.executable, RipgrepSearch.contentArgs(query, []), query.signal, (line) => (ended = records.take(line)), records.end);
    RipgrepSearch.check(exit.code, exit.stderr);
    if (ended) records.finish();
  }

  /**
   * One `rg --sort path` per consecutive run of the tree, all started at once and read one after the
   * other: rg sorts on one thread, so a whole walk (a pattern found in few files or none) gets the
   * machine's other cores too, and the matches still come in path order. A run whose turn has not come
   * waits in its pipe (RipgrepRunOptions.readFrom), so when the first finds enough the others cost
   * little. Each leaves the other runs' entries out of its walk and keeps only the paths in its own
   * run, so an entry made after the tree was weighed is still shown once. A run that errs ends the
   * search with its error; once enough is found, or one errs, every other is stopped.
   */
  private async searchInParts(query: ContentQuery, parts: SearchPart[], onMatch: (match: ContentMatch) => boolean): Promise<void> {
    const stop = new AbortController();
    const signal = AbortSignal.any([query.signal, stop.signal]);
    const shows = RipgrepSearch.fileTest(query.glob, query.admits);
    let previous: Promise<void> = Promise.resolve();
    const runs = parts.map((part, index) => {
      const readFrom = previous.catch(() => undefined);
      const run = (async () => {
        const owned = (relative: string): boolean => part.owns(relative) && (!shows || shows(relative));
        const records = new RipgrepMatchRecords(query.root, false, owned, query.perFileLimit, onMatch);
        let ended = true;
        try {
          const exit = await RipgrepProcess.run(this.executable, RipgrepSearch.contentArgs(query, part.excluded), signal, (line) => (ended = records.take(line)), records.end, { cwd: query.root, readFrom: index === 0 ? undefined : readFrom });
          RipgrepSearch.check(exit.code, exit.stderr);
        } catch (error) {
          if (stop.signal.aborted && !query.signal.aborted) return; // stopped here: enough was found, or another run erred
          stop.abort();
          throw error;
        }
        // Once the tool has enough, the runs after this one are stopped before their turn.
        if (!ended || !records.finish()) stop.abort();
      })();
      previous = run;
      return run;
    });
    await Promise.all(runs);
  }

  /** rg's arguments for a content search; `excluded` names root-relative entries its walk leaves out. */
  private static contentArgs(query: ContentQuery, excluded: string[]): string[] {
    const { rootIsFile, glob } = query;
    return [
      ...COMMON_ARGS,
      ...excluded.flatMap((relative) => ["--glob", `!/${relative.replace(GLOB_SPECIAL, "\\$&")}`]),
      // "path NUL line:text" records; in path order, so the search stops once the tool has enough.
      "--no-heading",
      "--with-filename",
      "--line-number",
      "--null",
      "--color",
      "never",
      "--max-columns",
      `${MAX_COLUMNS}`,
      "--max-columns-preview",
      ...(rootIsFile ? [] : ["--sort", "path"]),
      "--crlf",
      "--engine",
      "auto",
      "--max-filesize",
      `${CODING_TOOL_LIMITS.maxScanFileBytes}`,
      "--max-count",
      `${query.perFileLimit}`,
      ...(query.ignoreCase ? ["--ignore-case"] : ["--case-sensitive"]),
      ...(query.literal ? ["--fixed-strings"] : []),
      ...(glob && !rootIsFile ? RipgrepSearch.typeFilter(glob) : []),
      "--regexp",
      query.pattern,
      "--",
      query.root,
    ];
  }

  /** Which of rg's files may show: the glob's and the rules' test, judged here whatever rg was told. */
  private static fileTest(glob: GlobMatcher | undefined, admits: ((relative: string) => boolean) | undefined): ((relative: string) => boolean) | undefined {
    if (!admits) return glob && ((relative) => glob.matches(relative));
    return glob ? (relative) => glob.matches(relative) && admits(relative) : admits;
  }

  /** A glob on base names narrows rg's own walk; other globs are applied to its results only. */
  private static typeFilter(glob: GlobMatcher): string[] {
    return glob.baseNameOnly && !glob.normalized.includes("**") ? ["--type-add", `zi:${glob.normalized}`, "--type", "zi"] : [];
  }

  /** 0: matches, 1: none; 2 is an error, which with --no-messages only a fatal one prints. */
  private static check(code: number | null, stderr: string): void {
    if (code === 0 || code === 1) return;
    if (code === 2 && stderr.trim() === "") return; // unreadable entries were skipped, as the Node walk skips them
    throw new Error(`ripgrep failed: ${stderr.trim() || `exit code ${code}`}`);
  }
}
