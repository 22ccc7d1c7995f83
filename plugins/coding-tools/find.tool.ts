import { join } from "node:path";
import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import type { ToolDeclaration } from "../../core/session/tool-declaration.js";
import { declaredString } from "./declared-args.js";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";
import { GlobMatcher } from "./glob-matcher.js";
import { comparePaths } from "./search-backend.js";
import { chooseSearchBackend } from "./search-backend-choice.js";
import { searchDeclaration } from "./search-declaration.js";
import { joinBounded, resolveSearchRoot } from "./search-root.js";
import { SortedBest } from "./sorted-best.js";
import { ToolArgs } from "./tool-args.js";
import { displayPath } from "./tool-paths.js";

const { defaultFindLimit, maxListLimit, maxOutputBytes } = CODING_TOOL_LIMITS;

/** `find`: files whose path matches a glob, in sorted depth-first order; ripgrep's file list when installed. */
export class FindTool implements AgentTool {
  readonly name = "find";
  readonly description =
    "Find files by glob pattern under a directory (default: the working directory). Supports *, **, ?, [abc] and {a,b}. " +
    "A pattern without \"/\" matches file names at any depth (\"*.ts\"); a pattern with \"/\" matches the path relative to " +
    "the searched directory (\"src/**/*.test.ts\"). Respects .gitignore, .ignore and .git/info/exclude (nested ones too, and " +
    "outside git repositories); includes hidden files; skips .git. A path given explicitly is listed even inside an ignored " +
    `directory. Results are sorted; at most limit results (default ${defaultFindLimit}). Uses ripgrep when installed.`;
  readonly parameters = {
    type: "object",
    properties: {
      pattern: { type: "string", description: "Glob pattern, e.g. \"*.ts\" or \"src/**/*.{ts,tsx}\"." },
      path: { type: "string", description: "Directory to search (default: the working directory)." },
      limit: { type: "integer", minimum: 1, maximum: maxListLimit, description: `Most results (default ${defaultFindLimit}).` },
    },
    required: ["pattern"],
    additionalProperties: false,
  };

  readonly declaration: ToolDeclaration = searchDeclaration((args) => `Find ${declaredString(args, "pattern") ?? "files"}`);

  constructor(private readonly ripgrep?: string | false) {}

  async execute(rawArgs: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const args = new ToolArgs(this.name, rawArgs);
    const glob = new GlobMatcher(args.requiredString("pattern"));
    const limit = args.optionalInteger("limit", { min: 1, max: maxListLimit }) ?? defaultFindLimit;
    const root = resolveSearchRoot(context.cwd, args.optionalString("path"), context.mayRead);
    if (!root.stats.isDirectory()) throw new Error(`find: ${root.shown} is not a directory.`);

    const best = new SortedBest<string>(limit, comparePaths);
    await chooseSearchBackend(this.ripgrep).listFiles(root.absolute, glob, context.signal, (relative) => best.add(relative), root.admits);
    if (context.signal.aborted) throw new Error("find was interrupted.");
    const found = best.take().map((relative) => displayPath(context.cwd, join(root.absolute, relative)));
    if (found.length === 0) {
      return { content: [{ type: "text", text: `No files found matching "${glob.pattern}" in ${root.shown}` }], details: { count: 0, truncated: false } };
    }
    const more = best.total > found.length;
    const { text, count } = joinBounded(found, maxOutputBytes);
    const truncated = more || count < found.length;
    const note = truncated ? `\n\n[Showing the first ${count} matching files; more exist. Narrow the pattern or path${more ? " or raise limit" : ""}.]` : "";
    return { content: [{ type: "text", text: text + note }], details: { count, truncated } };
  }
}
