import type { AgentTool } from "../../core/session/agent-tool.js";
import { BashTool } from "./bash.tool.js";
import { EditTool } from "./edit.tool.js";
import { FindTool } from "./find.tool.js";
import { GrepTool } from "./grep.tool.js";
import { LsTool } from "./ls.tool.js";
import { ReadTool } from "./read.tool.js";
import { type PlanUpdater, UpdatePlanTool } from "./update-plan.tool.js";
import { WriteTool } from "./write.tool.js";

export interface CodingToolsOptions {
  /**
   * The working directory the tools were built for. Each call resolves paths against the cwd of
   * its execution context (the session's), so this is informational unless the context lacks one.
   */
  cwd: string;
  /** Where `bash` keeps the full output of commands whose output exceeded the bounds. */
  logDir: string;
  /** The session's `replaceWorkPlan`; without it there is no `update_plan` tool. */
  onPlanUpdate?: PlanUpdater;
}

/** Zi's built-in coding tools, in the order they are offered to the model. */
export function createCodingTools(options: CodingToolsOptions): AgentTool[] {
  const tools: AgentTool[] = [
    new ReadTool(),
    new WriteTool(),
    new EditTool(),
    new BashTool(options.logDir),
    new LsTool(),
    new GrepTool(),
    new FindTool(),
  ];
  if (options.onPlanUpdate) tools.push(new UpdatePlanTool(options.onPlanUpdate));
  return tools.map((tool) => withCwdFallback(tool, options.cwd));
}

/** Direct callers (extensions, tests) may pass a context without cwd: fall back to the factory's. */
function withCwdFallback(tool: AgentTool, cwd: string): AgentTool {
  const execute = tool.execute.bind(tool);
  tool.execute = (args, context) => execute(args, context.cwd ? context : { ...context, cwd });
  return tool;
}
