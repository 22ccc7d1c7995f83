import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";
import { FileWalker, type WalkedFile } from "./file-walker.js";
import { GlobMatcher } from "./glob-matcher.js";
import { joinBounded, resolveSearchRoot } from "./search-root.js";
import { clipChars } from "./text-bounds.js";
import { looksBinary } from "./text-file-reader.js";
import { ToolArgs } from "./tool-args.js";
import { displayPath } from "./tool-paths.js";

const { defaultGrepLimit, maxGrepLimit, maxOutputBytes, grepLineChars, maxScanFileBytes } = CODING_TOOL_LIMITS;

/**
 * `grep`: a regular-expression search in Node (no ripgrep needed, so behaviour is the same
 * everywhere). Patterns are JavaScript regular expressions, matched line by line.
 */
export class GrepTool implements AgentTool {
  readonly name = "grep";
  readonly description =
    "Search file contents with a JavaScript regular expression, line by line, under a directory or in one file " +
    "(default: the working directory). Results are \"path:line: text\" in sorted path order. glob filters files " +
    "(\"*.ts\" matches names at any depth; with \"/\" it matches the path relative to the searched directory). " +
    `Skips .git, node_modules, binary files and files over ${maxScanFileBytes / 1024 / 1024} MiB. ` +
    `At most limit matches (default ${defaultGrepLimit}); long lines are cut at ${grepLineChars} characters.`;
  readonly parameters = {
    type: "object",
    properties: {
      pattern: { type: "string", minLength: 1, description: "JavaScript regular expression, e.g. \"function\\\\s+main\"." },
      path: { type: "string", description: "Directory or file to search (default: the working directory)." },
      glob: { type: "string", description: "Only search files matching this glob, e.g. \"*.ts\" or \"src/**/*.{ts,tsx}\"." },
      ignoreCase: { type: "boolean", description: "Case-insensitive matching (default false)." },
      limit: { type: "integer", minimum: 1, maximum: maxGrepLimit, description: `Most matches to return (default ${defaultGrepLimit}).` },
    },
    required: ["pattern"],
    additionalProperties: false,
  };

  async execute(rawArgs: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const args = new ToolArgs(this.name, rawArgs);
    const pattern = args.requiredString("pattern");
    const ignoreCase = args.optionalBoolean("ignoreCase") ?? false;
    const limit = args.optionalInteger("limit", { min: 1, max: maxGrepLimit }) ?? defaultGrepLimit;
    const globText = args.optionalString("glob");
    const matcher = globText === undefined ? undefined : new GlobMatcher(globText);
    let regex: RegExp;
    try {
      regex = new RegExp(pattern, ignoreCase ? "i" : "");
    } catch (error) {
      throw new Error(`grep: invalid regular expression: ${error instanceof Error ? error.message : String(error)}`);
    }
    const root = await resolveSearchRoot(context.cwd, args.optionalString("path"));
    const files: AsyncIterable<WalkedFile> | WalkedFile[] = root.stats.isDirectory()
      ? new FileWalker(context.signal).walk(root.absolute)
      : [{ absolute: root.absolute, relative: basename(root.absolute) }];

    const results: string[] = [];
    let filesSearched = 0;
    let more = false;
    search: for await (const file of files) {
      if (matcher && !matcher.matches(file.relative)) continue;
      if (context.signal.aborted) throw new Error("grep was interrupted.");
      const text = await GrepTool.readSearchable(file.absolute);
      if (text === undefined) {
        if (!root.stats.isDirectory()) throw new Error(`grep: ${root.shown} is a binary file or larger than ${maxScanFileBytes} bytes.`);
        continue;
      }
      filesSearched++;
      const shown = displayPath(context.cwd, file.absolute);
      const lines = text.split("\n");
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!.endsWith("\r") ? lines[i]!.slice(0, -1) : lines[i]!;
        if (!regex.test(line)) continue;
        if (results.length === limit) {
          more = true;
          break search;
        }
        results.push(`${shown}:${i + 1}: ${clipChars(line, grepLineChars)}`);
      }
    }
    if (results.length === 0) {
      return { content: [{ type: "text", text: "No matches found." }], details: { matches: 0, filesSearched, truncated: false } };
    }
    const { text, count } = joinBounded(results, maxOutputBytes);
    const truncated = more || count < results.length;
    const note = truncated ? `\n\n[Showing the first ${count} matches; more exist. Narrow the pattern, path or glob${more ? ", or raise limit" : ""}.]` : "";
    return { content: [{ type: "text", text: text + note }], details: { matches: count, filesSearched, truncated } };
  }

  /** The file's text, or undefined for files a text search should skip (binary, too large, unreadable). */
  private static async readSearchable(absolute: string): Promise<string | undefined> {
    const stats = await stat(absolute).catch(() => undefined);
    if (!stats?.isFile() || stats.size > maxScanFileBytes) return undefined;
    const bytes = await readFile(absolute).catch(() => undefined);
    if (!bytes || looksBinary(bytes)) return undefined;
    return bytes.toString("utf8");
  }
}
