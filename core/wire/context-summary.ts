/** What a session's system prompt is built from, as `session.get_context` reports it (docs/context.md). */

/** A skill in the Agent Skills format: only these three reach the prompt, never the body. */
export interface Skill {
  name: string;
  description: string;
  /** Absolute path of its SKILL.md. */
  path: string;
}

/** A skill left out because an earlier directory has one of the same name (docs/context.md). */
export interface ShadowedSkill {
  name: string;
  path: string;
  shadowedBy: string;
}

/** A file or directory that could not be used: one stderr line and one `extension_error`. */
export interface ContextProblem {
  source: string;
  error: string;
}

/** What a session loaded, as `session.get_context` reports it: paths and names, never the files' text. */
export interface ContextSummary {
  cwd: string;
  gitRoot: string | null;
  projectTrusted: boolean;
  contextFiles: { path: string; clipped?: "file" | "total" | "omitted" }[];
  systemFiles: { path: string; role: "system" | "append"; clipped?: true }[];
  skills: Skill[];
  shadowedSkills: ShadowedSkill[];
  omittedSkills: string[];
  /** Files and directories that could not be used or were skipped (each also an `extension_error`). */
  problems: ContextProblem[];
}
