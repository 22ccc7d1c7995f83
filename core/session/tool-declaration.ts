import type { DescribedToolCall } from "../ports/session.port.js";
import type { ToolCallInfo, ToolCallKind, ToolEffect } from "../wire/session-types.js";

export type { ToolCallInfo, ToolCallKind, ToolEffect };

/** One path a call will touch: as the tool opens it, and with every symlink resolved (what path rules judge). */
export interface ToolCallPath {
  /** Absolute, as the tool's own resolver made it (`~`, relative paths). */
  path: string;
  /** `path` with symlinks resolved (of its deepest existing ancestor): where the call really lands. */
  real: string;
  /** The line a read starts at, for an editor's follow-along. */
  line?: number;
}

/** What one call will do, as its tool says: the same facts for the rules, the approval, ACP and the UI. */
export interface ToolCallDescription {
  /** One line, for a person: "Edit src/a.ts", the command itself. */
  title: string;
  paths: ToolCallPath[];
  /** The shell command line the call runs (an `execute` tool's): what `command` rules judge. */
  command?: string;
}

/**
 * An edit's effect on one file, computed by the code that applies it: the text now (`null`: the file
 * does not exist) and after. `skipped` instead when no preview can be made (too large, the edit would
 * fail): the reason, for a person.
 */
export type ToolEditPreview = { path: string; before: string | null; after: string } | { path: string; skipped: string };

/**
 * What a tool is, declared by the tool itself (the only place its name and nature are written):
 * the kind of effect its calls have, how to describe one call, and for edits a preview of the change.
 * Everyone else (permission rules, read-only mode, ACP's tool-call cards, the system prompt) derives
 * from it. Absent (an extension's tool that declares nothing): `other`, which never counts as read-only.
 */
export interface ToolDeclaration {
  effect: ToolEffect;
  /** A finer kind for display, ACP's names: `search` for a read that searches, `think` for a tool that only plans or delegates. */
  display?: "search" | "think";
  /** Never throws on arguments that passed the schema; may on others (then the call is described by its name). */
  describe?(args: Record<string, unknown>, cwd: string): ToolCallDescription;
  /** For `edit` tools: the change the call would make, by the same code that makes it. */
  preview?(args: Record<string, unknown>, cwd: string): Promise<ToolEditPreview[]>;
  /** One line of advice the system prompt's guidelines carry while the tool is offered. */
  guideline?: string;
  /** For `edit` tools: the change as the arguments alone say it (a transcript replayed without the files' old content). */
  argumentChanges?(args: Record<string, unknown>, cwd: string): ToolArgumentChange[];
}

/** One replacement a call's arguments name: `oldText` null for a whole new file. */
export interface ToolArgumentChange {
  path: string;
  oldText: string | null;
  newText: string;
}

/** What an undeclared tool is: an effect nobody can vouch for. */
export const UNDECLARED: ToolDeclaration = Object.freeze({ effect: "other" });

export function declarationOf(tool: { declaration?: ToolDeclaration } | undefined): ToolDeclaration {
  return tool?.declaration ?? UNDECLARED;
}

const MAX_TITLE_CHARS = 120;

/** A title as one bounded line (never split inside a surrogate pair). */
export function oneLineTitle(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  const chars = [...line];
  return chars.length > MAX_TITLE_CHARS ? `${chars.slice(0, MAX_TITLE_CHARS - 1).join("")}…` : line;
}

/** A call's description; a tool without one (or whose `describe` throws) is named by its name and touches no declared path. */
export function describeCall(name: string, declaration: ToolDeclaration, args: Record<string, unknown>, cwd: string): ToolCallDescription {
  if (declaration.describe) {
    try {
      const described = declaration.describe(args, cwd);
      return { ...described, title: oneLineTitle(described.title) };
    } catch {
      // Arguments the tool cannot read: the call is still judged (as its tool), just not by path.
    }
  }
  return { title: oneLineTitle(name), paths: [] };
}

/** How the call presents itself on the wire (`tool_execution_start.call`, ACP's tool-call cards). */
export function callInfo(declaration: ToolDeclaration, description: ToolCallDescription): ToolCallInfo {
  const kind: ToolCallKind = declaration.display ?? declaration.effect;
  return {
    kind,
    title: description.title,
    locations: description.paths.map((entry) => (entry.line === undefined ? { path: entry.path } : { path: entry.path, line: entry.line })),
  };
}

/** A call of `tool` (undefined: unknown, so undeclared) as the session port describes it: how it presents itself and the changes its arguments name. */
export function describedToolCall(tool: { declaration?: ToolDeclaration } | undefined, toolName: string, args: Record<string, unknown>, cwd: string): DescribedToolCall {
  const declaration = declarationOf(tool);
  let changes: DescribedToolCall["changes"] = [];
  try {
    changes = declaration.argumentChanges?.(args, cwd) ?? [];
  } catch {
    // Arguments the tool cannot read name no change.
  }
  return { info: callInfo(declaration, describeCall(toolName, declaration, args, cwd)), changes };
}
