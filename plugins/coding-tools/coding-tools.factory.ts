import type { AgentTool } from "../../core/session/agent-tool.js";
import { BashTool } from "./bash.tool.js";
import { EditTool } from "./edit.tool.js";
import { FindTool } from "./find.tool.js";
import { GrepTool } from "./grep.tool.js";
import { LsTool } from "./ls.tool.js";
import { ReadTool } from "./read.tool.js";
import { WriteTool } from "./write.tool.js";

export interface CodingToolsOptions {
  /**
   * The working directory the tools were built for. Each call resolves paths against the cwd of
   * its execution context (the session's), so this is informational unless the context lacks one.
   */
  cwd: string;
  /** Where `bash` keeps the full output of commands whose output exceeded the bounds. */
  logDir: string;
  /** `rg` for grep and find: a path, false for the Node search, or unset for `rg` on PATH when there is one. */
  ripgrep?: string | false;
}

/**
 * Zi's built-in coding tools, in the order they are offered to the model: the one list a new tool is
 * added to (tests and the delegation profiles derive their tool names from it). `update_plan` belongs
 * to the work-plan plugin.
 */
export function createCodingTools(options: CodingToolsOptions): AgentTool[] {
  const tools: AgentTool[] = [
    new ReadTool(),
    new WriteTool(),
    new EditTool(),
    new BashTool(options.logDir),
    new LsTool(),
    new GrepTool(options.ripgrep),
    new FindTool(options.ripgrep),
  ];
  return tools.map((tool) => withCwdFallback(tool, options.cwd));
}

/** Direct callers (extensions, tests) may pass a context without cwd: fall back to the factory's. */
function withCwdFallback(tool: AgentTool, cwd: string): AgentTool {
  const execute = tool.execute.bind(tool);
  tool.execute = (args, context) => execute(args, context.cwd ? context : { ...context, cwd });
  return tool;
}
