import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import type { ToolDeclaration } from "../../core/session/tool-declaration.js";
import { declaredString } from "./declared-args.js";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";
import { GlobMatcher } from "./glob-matcher.js";
import { type GrepLine, withContext } from "./grep-context.js";
import { type ContentMatch, comparePaths, grepRegExp } from "./search-backend.js";
import { chooseSearchBackend } from "./search-backend-choice.js";
import { searchDeclaration } from "./search-declaration.js";
import { joinBounded, resolveSearchRoot } from "./search-root.js";
import { SortedBest } from "./sorted-best.js";
import { clipChars } from "./text-bounds.js";
import { ToolArgs } from "./tool-args.js";
import { displayPath } from "./tool-paths.js";

const { defaultGrepLimit, maxGrepLimit, maxOutputBytes, grepLineChars, maxScanFileBytes, maxGrepContext } = CODING_TOOL_LIMITS;

const byPathAndLine = (a: ContentMatch, b: ContentMatch): number => comparePaths(a.relative, b.relative) || a.line - b.line;

/**
 * `grep`: ripgrep when it is installed, a Node search otherwise; the same files, the same matches,
 * the same order either way. Patterns are JavaScript regular expressions (ripgrep runs them with
 * its PCRE2 fallback when its own engine lacks a feature).
 */
export class GrepTool implements AgentTool {
  readonly name = "grep";
  readonly description =
    "Search file contents with a regular expression (JavaScript syntax), line by line, under a directory or in one file " +
    "(default: the working directory). Respects .gitignore, .ignore and .git/info/exclude (also nested ones, and outside git " +
    "repositories); includes hidden files; skips .git, binary files and files over " +
    `${maxScanFileBytes / 1024 / 1024} MiB. A path given explicitly is searched even inside an ignored directory. ` +
    "Results are \"path:line: text\" sorted by path and line. glob filters files (\"*.ts\" matches names at any depth; " +
    "with \"/\" it matches the path relative to the searched directory). literal: true searches for the text as given. " +
    "context: N adds N lines before and after each match (\"path-12- text\"; \"--\" separates blocks). " +
    `At most limit matches (default ${defaultGrepLimit}); long lines are cut at ${grepLineChars} characters. Uses ripgrep when installed.`;
  readonly parameters = {
    type: "object",
    properties: {
      pattern: { type: "string", minLength: 1, description: "Regular expression (JavaScript syntax), e.g. \"function\\\\s+main\", or the text itself with literal: true." },
      path: { type: "string", description: "Directory or file to search (default: the working directory)." },
      glob: { type: "string", description: "Only search files matching this glob, e.g. \"*.ts\" or \"src/**/*.{ts,tsx}\"." },
      ignoreCase: { type: "boolean", description: "Case-insensitive matching (default false)." },
      literal: { type: "boolean", description: "Treat pattern as literal text, not a regular expression (default false)." },
      context: { type: "integer", minimum: 0, maximum: maxGrepContext, description: "Lines to show before and after each match (default 0)." },
      limit: { type: "integer", minimum: 1, maximum: maxGrepLimit, description: `Most matches to return (default ${defaultGrepLimit}).` },
    },
    required: ["pattern"],
    additionalProperties: false,
  };

  readonly declaration: ToolDeclaration = searchDeclaration((args) => `Search ${JSON.stringify(declaredString(args, "pattern") ?? "")}`);

  constructor(private readonly ripgrep?: string | false) {}

  async execute(rawArgs: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const args = new ToolArgs(this.name, rawArgs);
    const pattern = args.requiredString("pattern");
    const ignoreCase = args.optionalBoolean("ignoreCase") ?? false;
    const literal = args.optionalBoolean("literal") ?? false;
    const contextLines = args.optionalInteger("context", { min: 0, max: maxGrepContext }) ?? 0;
    const limit = args.optionalInteger("limit", { min: 1, max: maxGrepLimit }) ?? defaultGrepLimit;
    const globText = args.optionalString("glob");
    const glob = globText === undefined ? undefined : new GlobMatcher(globText);
    try {
      grepRegExp(pattern, literal, ignoreCase);
    } catch (error) {
      throw new Error(`grep: invalid regular expression: ${error instanceof Error ? error.message : String(error)}`);
    }
    const root = resolveSearchRoot(context.cwd, args.optionalString("path"), context.mayRead);
    const rootIsFile = !root.stats.isDirectory();
    // A device or a FIFO has no end: reading one would grow Zi without bound (read refuses them too).
    if (rootIsFile && !root.stats.isFile()) throw new Error(`grep: ${root.shown} is not a regular file.`);
    if (rootIsFile) await GrepTool.checkSearchable(root.absolute, root.shown, root.stats.size);

    const best = new SortedBest<ContentMatch>(limit, byPathAndLine);
    const backend = chooseSearchBackend(this.ripgrep);
    const query = { root: root.absolute, rootIsFile, pattern, literal, ignoreCase, glob, admits: root.admits, perFileLimit: limit + 1, signal: context.signal };
    // Matches arrive in order: one past the limit says "more exist", and nothing after it can show.
    await backend.searchContents(query, (match) => {
      best.add(match);
      return best.total <= limit;
    });
    if (context.signal.aborted) throw new Error("grep was interrupted.");
    const found = best.take();
    if (found.length === 0) {
      return { content: [{ type: "text", text: "No matches found." }], details: { matches: 0, truncated: false } };
    }
    const entries: GrepLine[] = await withContext(found, root.absolute, contextLines);
    const lines = entries.map((entry) => GrepTool.render(entry, displayPath(context.cwd, entry.relative === "" ? root.absolute : join(root.absolute, entry.relative))));
    const more = best.total > found.length;
    const { text, count } = joinBounded(lines, maxOutputBytes);
    const shownMatches = entries.slice(0, count).filter((entry) => entry.isMatch).length;
    const truncated = more || count < lines.length;
    const note = truncated ? `\n\n[Showing the first ${shownMatches} matches; more exist. Narrow the pattern, path or glob${more ? ", or raise limit" : ""}.]` : "";
    return { content: [{ type: "text", text: text + note }], details: { matches: shownMatches, truncated } };
  }

  /** "path:12: text" for a match, "path-12- text" for context; a gap line first when a block starts. */
  private static render(entry: GrepLine, shown: string): string {
    const line = entry.isMatch ? `${shown}:${entry.line}: ` : `${shown}-${entry.line}- `;
    return `${entry.gapBefore ? "--\n" : ""}${line}${clipChars(entry.text, grepLineChars)}`;
  }

  /** A file named explicitly is refused, not silently skipped, when a search would skip it. */
  private static async checkSearchable(absolute: string, shown: string, size: number): Promise<void> {
    const refusal = new Error(`grep: ${shown} is a binary file or larger than ${maxScanFileBytes} bytes.`);
    if (size > maxScanFileBytes) throw refusal;
    const bytes = await readFile(absolute);
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    if (!utf16 && bytes.indexOf(0) >= 0) throw refusal;
  }
}
