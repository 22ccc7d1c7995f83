import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { PermissionRule } from "../../core/wire/session-types.js";
import { commandParts, partCommand } from "./bash-command.js";
import { type CallUnit, literalGlob } from "./permission-rule.js";
import { BASH_TOOL, PATH_TOOLS } from "./rule-check.js";

/** The real path of `path`'s deepest existing ancestor, with the rest appended (a symlink cannot hide an escape). */
function realish(path: string): string {
  let existing = path;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(existing);
      return rest.length === 0 ? real : resolve(real, ...rest.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.push(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      existing = parent;
    }
  }
}

/** The working directory's real path, resolved once per directory (it is the same for every call). */
const roots = new Map<string, string>();

/** Where a path argument points: relative to the cwd with "/" separators, or undefined outside it. */
export function locate(cwd: string, path: string): { relative: string | undefined; absolute: string } {
  const absolute = realish(resolve(cwd, path));
  let root = roots.get(cwd);
  if (root === undefined) roots.set(cwd, (root = realish(resolve(cwd))));
  const inside = relative(root, absolute);
  const outside = inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside);
  return { relative: outside ? undefined : inside.split(sep).join("/") || ".", absolute };
}

/**
 * What the policy looks at in one call: for `bash` each simple command of the line (a command with no
 * words at all is one empty unit, so it still meets the tool's rules), for `write`/`edit` the path,
 * for every other tool its name.
 */
export function callUnits(toolName: string, args: Record<string, unknown>, cwd: string): CallUnit[] {
  if (toolName === BASH_TOOL && typeof args.command === "string") {
    const parts = commandParts(args.command);
    if (parts.length === 0) return [{ kind: "command", tool: toolName, tokens: [], opaque: false }];
    return parts.map((part) => ({ kind: "command", tool: toolName, tokens: part.tokens, opaque: part.opaque }));
  }
  if (PATH_TOOLS.has(toolName) && typeof args.path === "string") return [{ kind: "path", tool: toolName, ...locate(cwd, args.path) }];
  return [{ kind: "tool", tool: toolName }];
}

const firstSubstitution = (tokens: string[]): number => {
  const index = tokens.findIndex((token) => token.includes("$(") || token.includes("`") || /^[<>]\(…\)$/.test(token));
  return index < 0 ? tokens.length : index;
};

/** The session rule `allow_always` adds for one unit: the same tool, command or path. */
export function alwaysRule(unit: CallUnit): PermissionRule | undefined {
  switch (unit.kind) {
    case "command": {
      // A redirection or here-document cannot be held by a command rule (they never match one); a
      // substitution's words end the prefix (its own commands are parts of their own).
      const words = unit.tokens.slice(0, firstSubstitution(unit.tokens));
      return unit.opaque || words.length === 0 ? undefined : { action: "allow", tool: BASH_TOOL, command: partCommand({ tokens: words, opaque: false }) };
    }
    case "path":
      return { action: "allow", tool: unit.tool, path: unit.relative === undefined ? literalGlob(unit.absolute) : literalGlob(unit.relative) };
    default:
      return { action: "allow", tool: literalGlob(unit.tool) };
  }
}
