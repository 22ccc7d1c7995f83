import { isAbsolute, relative, sep } from "node:path";
import { realPath } from "../../core/session/tool-path-resolver.js";
import type { ToolCallDescription, ToolEffect } from "../../core/session/tool-declaration.js";
import type { PermissionRule } from "../../core/wire/session-types.js";
import { commandParts, partCommand } from "./bash-command.js";
import { type CallUnit, literalGlob } from "./permission-rule.js";

/** The working directory's real path, resolved once per directory (it is the same for every call). */
const roots = new Map<string, string>();

/** Where a declared path lands: relative to the cwd's real path with "/" separators, or undefined outside it. */
export function locate(cwd: string, real: string): { relative: string | undefined; absolute: string; root: string } {
  let root = roots.get(cwd);
  if (root === undefined) roots.set(cwd, (root = realPath(cwd)));
  // A real path below the root is the root and the rest (a tree search asks this for every file it meets).
  const inside = real.startsWith(root) && real[root.length] === sep ? real.slice(root.length + 1) : relative(root, real);
  const outside = inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside);
  return { relative: outside ? undefined : inside.split(sep).join("/") || ".", absolute: real, root };
}

/**
 * What the policy looks at in one call, from its tool's declaration: for a call that runs a command
 * each simple command of the line (a command with no words at all is one empty unit, so it still meets
 * the tool's rules), for a call that touches paths each path (as the tool's own resolver found it,
 * symlinks resolved, and for an edit the read-only place holding it, if any), for every other call the
 * tool itself.
 */
export function callUnits(toolName: string, effect: ToolEffect, description: ToolCallDescription, cwd: string, protectedPlace?: (real: string) => string | undefined): CallUnit[] {
  const tool = toolName;
  if (description.command !== undefined) {
    const parts = commandParts(description.command);
    if (parts.length === 0) return [{ kind: "command", tool, effect, tokens: [], opaque: false, runs: [] }];
    return parts.map((part) => ({ kind: "command", tool, effect, tokens: part.tokens, opaque: part.opaque, runs: part.runs }));
  }
  if (description.paths.length > 0) {
    return description.paths.map((entry) => {
      const protectedBy = effect === "edit" ? protectedPlace?.(entry.real) : undefined;
      return { kind: "path", tool, effect, ...locate(cwd, entry.real), ...(protectedBy === undefined ? {} : { protectedBy }) };
    });
  }
  return [{ kind: "tool", tool, effect }];
}

/** The session rule `allow_always` adds for one unit: the same tool, command or path. */
export function alwaysRule(unit: CallUnit): PermissionRule | undefined {
  switch (unit.kind) {
    case "command": {
      // Only a part read exactly can be held by a rule: an opaque one asks again next time.
      return unit.opaque || unit.tokens.length === 0 ? undefined : { action: "allow", tool: literalGlob(unit.tool), command: partCommand(unit) };
    }
    case "path":
      return { action: "allow", tool: literalGlob(unit.tool), path: unit.relative === undefined ? literalGlob(unit.absolute) : literalGlob(unit.relative) };
    default:
      return { action: "allow", tool: literalGlob(unit.tool) };
  }
}
