/** The shapes the context loaders produce and the system-prompt builder reads (docs/context.md). */

import type { ContextProblem, ContextSummary, ShadowedSkill, Skill } from "../wire/context-summary.js";

export type { ContextProblem, ContextSummary, ShadowedSkill, Skill };

export interface PromptEnvironment {
  /** Absolute. */
  cwd: string;
  /** Today in the local time zone, `YYYY-MM-DD`. */
  date: string;
  /** e.g. `linux (x64)`. */
  platform: string;
  /** The user's login shell (`$SHELL`), when known. */
  shell: string | undefined;
  /** The nearest directory at or above `cwd` holding `.git` (a directory or a worktree's file); null outside a repository. */
  gitRoot: string | null;
}

/** An AGENTS.md or CLAUDE.md as it goes into the prompt. */
export interface ContextFile {
  path: string;
  /** What the prompt shows: the whole file, a clipped prefix, or "" when `clipped` is "omitted". */
  content: string;
  /** "file": longer than the per-file bound; "total": cut by the total budget; "omitted": no budget left. */
  clipped?: "file" | "total" | "omitted";
}

/** A SYSTEM.md or APPEND_SYSTEM.md. */
export interface SystemFile {
  path: string;
  origin: "global" | "project";
  content: string;
  clipped: boolean;
}

/** Everything read from disk for a session's system prompt, once per process start. */
export interface LoadedContext {
  environment: PromptEnvironment;
  contextFiles: ContextFile[];
  /** SYSTEM.md (the project's replaces ZI_HOME's), replacing the default identity and guidelines. */
  system: SystemFile | undefined;
  /** APPEND_SYSTEM.md files: ZI_HOME's, then the project's. */
  appends: SystemFile[];
  skills: Skill[];
  shadowedSkills: ShadowedSkill[];
  /** Valid skills past `maxSkills`, named in a note instead of listed. */
  omittedSkills: string[];
  problems: ContextProblem[];
  projectTrusted: boolean;
}
