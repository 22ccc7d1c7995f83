import type { AgentTool } from "../../core/session/agent-tool.js";
import type { AgentSession } from "../../core/session/agent-session.js";
import { createCodingTools } from "../coding-tools/coding-tools.public.js";
import { UpdatePlanTool } from "../work-plan/work-plan.public.js";
import type { AgentProfile } from "./agent-profile.js";

export const DELEGATE_TOOL = "delegate";

export interface ChildToolSources {
  cwd: string;
  /** Where the children's `bash` keeps long outputs. */
  logDir: string;
  /** The parent's tools now (extension tools a profile may name). */
  parentTools(): readonly AgentTool[];
  /** A `delegate` tool for this child, or undefined once the depth cap is reached. */
  delegateFor(child: AgentSession): AgentTool | undefined;
}

/**
 * A child's tools: fresh built-in coding tools and `update_plan` (which changes the child's plan,
 * not the parent's) when the profile names none; otherwise exactly the names it lists, taken from the coding
 * tools, a `delegate` of the child's own (only if listed, and within the depth cap), then the
 * parent's other tools (extensions, MCP servers). A name ending in `*` names every such tool it
 * prefixes (`mcp__github__*`). Names that exist nowhere are left out.
 */
export function childTools(profile: AgentProfile, child: AgentSession, sources: ChildToolSources): AgentTool[] {
  const coding = [
    ...createCodingTools({ cwd: sources.cwd, logDir: sources.logDir }),
    new UpdatePlanTool(async (steps) => child.replaceWorkPlan(steps)),
  ];
  if (profile.tools === undefined) return coding;
  const byName = new Map<string, AgentTool>();
  for (const tool of sources.parentTools()) if (tool.name !== DELEGATE_TOOL) byName.set(tool.name, tool);
  for (const tool of coding) byName.set(tool.name, tool);
  const tools: AgentTool[] = [];
  for (const name of profile.tools) {
    if (name.endsWith("*")) {
      // A prefix pattern (`mcp__github__*`) names every matching parent tool now, never `delegate`.
      const prefix = name.slice(0, -1);
      for (const [toolName, tool] of byName) if (toolName.startsWith(prefix) && !tools.includes(tool)) tools.push(tool);
      continue;
    }
    const tool = name === DELEGATE_TOOL ? sources.delegateFor(child) : byName.get(name);
    if (tool && !tools.includes(tool)) tools.push(tool);
  }
  return tools;
}
