import { homedir } from "node:os";
import { isAbsolute, relative, resolve, sep } from "node:path";

/**
 * Resolves a path argument. Relative paths resolve against the session's cwd; absolute paths and
 * `~` (the user's home) are accepted as they are. Paths outside cwd are deliberately allowed: the
 * agent runs with the user's own rights (like a shell), so a cwd fence would only be cosmetic.
 */
export function resolveToolPath(cwd: string, path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return resolve(homedir(), path.slice(2));
  return resolve(cwd, path);
}

/** How results name a file: relative to cwd when inside it (shorter, and valid as a later argument), else absolute. */
export function displayPath(cwd: string, absolute: string): string {
  const rel = relative(resolve(cwd), absolute);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return absolute;
  return sep === "/" ? rel : rel.split(sep).join("/");
}
