import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";
import { FileWalker } from "./file-walker.js";
import { GlobMatcher } from "./glob-matcher.js";
import { joinBounded, resolveSearchRoot } from "./search-root.js";
import { ToolArgs } from "./tool-args.js";
import { displayPath } from "./tool-paths.js";

const { defaultFindLimit, maxListLimit, maxOutputBytes } = CODING_TOOL_LIMITS;

/** `find`: files whose path matches a glob, in sorted depth-first order. */
export class FindTool implements AgentTool {
  readonly name = "find";
  readonly description =
    "Find files by glob pattern under a directory (default: the working directory). Supports *, **, ?, [abc] and {a,b}. " +
    "A pattern without \"/\" matches file names at any depth (\"*.ts\"); a pattern with \"/\" matches the path relative to " +
    `the searched directory ("src/**/*.test.ts"). Skips .git and node_modules. At most limit results (default ${defaultFindLimit}).`;
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

  async execute(rawArgs: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const args = new ToolArgs(this.name, rawArgs);
    const matcher = new GlobMatcher(args.requiredString("pattern"));
    const limit = args.optionalInteger("limit", { min: 1, max: maxListLimit }) ?? defaultFindLimit;
    const root = await resolveSearchRoot(context.cwd, args.optionalString("path"));
    if (!root.stats.isDirectory()) throw new Error(`find: ${root.shown} is not a directory.`);

    const found: string[] = [];
    let more = false;
    for await (const file of new FileWalker(context.signal).walk(root.absolute)) {
      if (!matcher.matches(file.relative)) continue;
      if (found.length === limit) {
        more = true;
        break;
      }
      found.push(displayPath(context.cwd, file.absolute));
    }
    if (found.length === 0) {
      return { content: [{ type: "text", text: `No files found matching "${matcher.pattern}" in ${root.shown}` }], details: { count: 0, truncated: false } };
    }
    const { text, count } = joinBounded(found, maxOutputBytes);
    const truncated = more || count < found.length;
    const note = truncated ? `\n\n[Showing the first ${count} matching files; more exist. Narrow the pattern or path${more ? " or raise limit" : ""}.]` : "";
    return { content: [{ type: "text", text: text + note }], details: { count, truncated } };
  }
}
