import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, resolve, sep } from "node:path";
import type { ToolCallPath } from "./tool-declaration.js";

/**
 * The one resolver of a tool's path argument, used by the tool to open the file and, through its
 * declaration, by the permission rules to judge it: relative paths resolve against the session's cwd,
 * `~` and `~/…` against the user's home, absolute paths stay.
 */
export function resolveToolPath(cwd: string, path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return resolve(homedir(), path.slice(2));
  return resolve(cwd, path);
}

/** The real path of `path`'s deepest existing ancestor with the rest appended: a symlink cannot hide where a call lands. */
export function realPath(path: string): string {
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

/** A path argument as a declaration reports it. */
export function toolCallPath(cwd: string, path: string, line?: number): ToolCallPath {
  const absolute = resolveToolPath(cwd, path);
  return line === undefined ? { path: absolute, real: realPath(absolute) } : { path: absolute, real: realPath(absolute), line };
}
