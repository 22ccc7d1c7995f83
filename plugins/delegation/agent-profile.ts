import type { ThinkingLevel } from "../../core/wire/session-types.js";

/** Where a profile was found, by rising priority. */
export type ProfileOrigin = "builtin" | "global" | "project";

/** A delegation profile: a Markdown file's YAML front matter, and its body as the child's system prompt. */
export interface AgentProfile {
  name: string;
  /** What the parent model reads when choosing a profile. */
  description: string;
  /** Allow-list of tool names; undefined = the built-in coding tools (never `delegate`). */
  tools?: string[];
  /** `provider/id`; undefined = the parent's current model. */
  model?: { provider: string; id: string };
  /** undefined = the parent's current level. */
  thinking?: ThinkingLevel;
  maxTurns?: number;
  maxRuntimeSeconds?: number;
  systemPrompt: string;
  origin: ProfileOrigin;
  /** The file it came from ("builtin:<name>" for the built-in ones). */
  source: string;
}
