const KiB = 1024;

/**
 * Bounds of what Zi reads into the system prompt (docs/context.md). Context files are shown clipped,
 * with a visible note, never refused for their size; the budget keeps a deep checkout or a huge
 * AGENTS.md from filling a model's context window before the first message.
 */
export const CONTEXT_LIMITS = Object.freeze({
  /** One AGENTS.md / CLAUDE.md: the rest is cut with a note. */
  maxContextFileBytes: 32 * KiB,
  /** Every context file together, in prompt order: later files are clipped, then left out, with a note. */
  maxContextTotalBytes: 64 * KiB,
  /** SYSTEM.md and each APPEND_SYSTEM.md. */
  maxSystemFileBytes: 32 * KiB,
  /** How much of a SKILL.md is read to find its front matter (the body is never read into the prompt). */
  maxSkillFileBytes: 64 * KiB,
  /** Skills listed in the prompt, all directories together; the rest are counted in one note. */
  maxSkills: 100,
  /** The skills block's entries, in bytes (as Codex bounds its project docs): later skills are left out, counted in the note. */
  maxSkillsBytes: 16 * KiB,
  /** How much of that note names the skills left out; the rest are only counted. */
  maxOmittedSkillNamesBytes: 1 * KiB,
  /** The Agent Skills format's own bounds (agentskills.io). */
  maxSkillNameChars: 64,
  maxSkillDescriptionChars: 1024,
  /** One line of the tool list: a tool description's first line, cut at this many characters. */
  maxToolSummaryChars: 240,
  /** What one extension's system-prompt hook may add to one run. */
  maxHookBytes: 32 * KiB,
  /** How long a run waits for one extension's system-prompt hook before it goes without it. */
  hookTimeoutMs: 5000,
});

export type ContextLimits = { -readonly [K in keyof typeof CONTEXT_LIMITS]: number };
