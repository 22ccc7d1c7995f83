import { CONTEXT_LIMITS } from "./context-limits.js";
import type { ToolEffect } from "../wire/session-types.js";
import type { ContextFile, LoadedContext, PromptEnvironment, Skill, SystemFile } from "./context-types.js";

/** A tool as the prompt lists it: its declaration says what it does, and the advice it carries (no tool is named here). */
export interface PromptTool {
  name: string;
  description: string;
  declaration?: { effect: ToolEffect; guideline?: string };
}

const effectOf = (tool: PromptTool): ToolEffect => tool.declaration?.effect ?? "other";

/** Text an extension's hook adds to one run's prompt. */
export interface PromptAddition {
  source: string;
  text: string;
}

export const DEFAULT_IDENTITY =
  "You are Zi, a coding agent working in the user's project. You help by reading and searching its files, changing them, and running commands, using the tools below.";

const xml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const bullets = (lines: readonly string[]): string => lines.map((line) => `- ${line}`).join("\n");

/**
 * Assembles the system prompt from its parts, in a fixed order (docs/context.md): identity (or
 * SYSTEM.md), tools, guidelines, project context, skills, environment, APPEND_SYSTEM.md, then what
 * extensions add for the run. Pure: the same parts give the same text, so `zi prompt` prints exactly
 * what a session sends. Each section is a method of its own, tested on its own.
 */
export class SystemPromptBuilder {
  build(context: LoadedContext, tools: readonly PromptTool[], additions: readonly PromptAddition[] = []): string {
    return [
      this.identity(context.system),
      this.toolList(tools),
      context.system ? undefined : this.guidelines(tools),
      this.projectContext(context.contextFiles),
      this.skills(context.skills, context.omittedSkills, tools),
      this.environment(context.environment),
      ...context.appends.map((file) => this.fileText(file)),
      ...additions.map((addition) => addition.text),
    ]
      .filter((section): section is string => section !== undefined && section.trim() !== "")
      .join("\n\n");
  }

  /** What a delegated child adds to its profile's prompt: where it runs and what the project says. */
  childSections(context: LoadedContext): string {
    return [this.projectContext(context.contextFiles), this.environment(context.environment)].filter((section) => section !== undefined).join("\n\n");
  }

  identity(system: SystemFile | undefined): string {
    return system ? this.fileText(system) : DEFAULT_IDENTITY;
  }

  toolList(tools: readonly PromptTool[]): string | undefined {
    if (tools.length === 0) return undefined;
    return `# Tools\n\n${bullets(tools.map((tool) => `${tool.name}: ${this.summary(tool.description)}`))}`;
  }

  /** A description's first sentence (of its first non-empty line), cut to a bounded length. */
  summary(description: string): string {
    const first = description.split("\n").map((part) => part.trim()).find((part) => part !== "") ?? "";
    const line = /^.+?[.!?](?=\s|$)/.exec(first)?.[0] ?? first;
    const chars = [...line];
    return chars.length > CONTEXT_LIMITS.maxToolSummaryChars ? `${chars.slice(0, CONTEXT_LIMITS.maxToolSummaryChars - 1).join("")}…` : line;
  }

  /**
   * Advice that follows the tools actually present, from their declarations: what reads, what runs
   * commands, what edits, and each tool's own guideline. None refers to a tool the model lacks.
   */
  guidelines(tools: readonly PromptTool[]): string {
    const lines: string[] = [];
    const named = (effect: ToolEffect) => tools.filter((tool) => effectOf(tool) === effect).map((tool) => tool.name);
    const [readers, runners, editors] = [named("read"), named("execute"), named("edit")];
    if (readers.length > 0 && runners.length > 0) lines.push(`Prefer ${readers.join(", ")} over ${runners.join(", ")} for reading and exploring files: they are faster, and the searches respect .gitignore.`);
    else if (runners.length > 0) lines.push(`Use ${runners[0]} to explore the project (ls, rg, find).`);
    if (readers.length > 0 && editors.length > 0) lines.push("Read a file before you change it.");
    for (const tool of tools) if (tool.declaration?.guideline) lines.push(tool.declaration.guideline);
    lines.push("Follow the project's instructions below; nearer files take precedence over earlier ones.");
    lines.push("Be concise. Show file paths clearly, and when you are done, say what you changed in plain text.");
    return `# Guidelines\n\n${bullets(lines)}`;
  }

  projectContext(files: readonly ContextFile[]): string | undefined {
    if (files.length === 0) return undefined;
    const parts = files.map((file) => {
      const note = this.clipNote(file);
      const body = file.clipped === "omitted" ? note! : note ? `${file.content}\n\n${note}` : file.content;
      return `## ${file.path}\n\n${body.trim()}`;
    });
    return [
      "# Project context",
      "Instructions the user and the project wrote for agents, from the most general to the nearest to the working directory; a later file takes precedence over an earlier one.",
      ...parts,
    ].join("\n\n");
  }

  clipNote(file: ContextFile): string | undefined {
    switch (file.clipped) {
      case "file":
        return `[zi: clipped: this file is longer than ${CONTEXT_LIMITS.maxContextFileBytes} bytes; read ${file.path} for the rest]`;
      case "total":
        return `[zi: clipped: the context files exceed their ${CONTEXT_LIMITS.maxContextTotalBytes}-byte budget; read ${file.path} for the rest]`;
      case "omitted":
        return `[zi: omitted: the context files exceed their ${CONTEXT_LIMITS.maxContextTotalBytes}-byte budget; read ${file.path}]`;
      default:
        return undefined;
    }
  }

  /** Listed only when the model can read a SKILL.md (a tool that reads, or one that runs commands). */
  skills(skills: readonly Skill[], omitted: readonly string[], tools: readonly PromptTool[]): string | undefined {
    if (skills.length === 0 || !tools.some((tool) => effectOf(tool) === "read" || effectOf(tool) === "execute")) return undefined;
    // A byte budget as well as a count: 20,000 skills made a 165 KB prompt on every run.
    const entries: string[] = [];
    const left: string[] = [];
    let bytes = 0;
    for (const skill of skills) {
      const entry = `  <skill>\n    <name>${xml(skill.name)}</name>\n    <description>${xml(skill.description)}</description>\n    <location>${xml(skill.path)}</location>\n  </skill>`;
      const size = Buffer.byteLength(entry) + 1;
      if (left.length > 0 || (entries.length > 0 && bytes + size > CONTEXT_LIMITS.maxSkillsBytes)) left.push(skill.name);
      else {
        entries.push(entry);
        bytes += size;
      }
    }
    left.push(...omitted);
    const lines = [
      "# Skills",
      "Skills are instructions for specific kinds of task. When a task matches a skill's description, read its SKILL.md (the location below) before you start, and follow it; resolve relative paths in it against the skill's folder.",
      `<available_skills>\n${entries.join("\n")}\n</available_skills>`,
    ];
    if (left.length > 0) lines.push(omittedNote(left));
    return lines.join("\n\n");
  }

  environment(environment: PromptEnvironment): string {
    const lines = [
      `Working directory: ${environment.cwd}`,
      `Today's date: ${environment.date}`,
      `Platform: ${environment.platform}`,
      `Shell: ${environment.shell ?? "unknown"}`,
      environment.gitRoot === null ? "Git repository: no" : `Git repository: yes, root ${environment.gitRoot}`,
    ];
    return `# Environment\n\n${bullets(lines)}`;
  }

  fileText(file: SystemFile): string {
    const text = file.content.trim();
    return file.clipped ? `${text}\n\n[zi: clipped: ${file.path} is longer than ${CONTEXT_LIMITS.maxSystemFileBytes} bytes]` : text;
  }
}

/** The note of the skills left out: how many, why, and as many names as fit its own small budget. */
function omittedNote(names: readonly string[]): string {
  const shown: string[] = [];
  let bytes = 0;
  for (const name of names) {
    bytes += Buffer.byteLength(name) + 2;
    if (bytes > CONTEXT_LIMITS.maxOmittedSkillNamesBytes) break;
    shown.push(name);
  }
  const rest = names.length - shown.length;
  const why = `at most ${CONTEXT_LIMITS.maxSkills} skills and ${CONTEXT_LIMITS.maxSkillsBytes / 1024} KiB are listed`;
  return `[zi: ${names.length} more skill(s) not listed (${why}): ${shown.join(", ")}${rest > 0 ? `, and ${rest} more` : ""}]`;
}
