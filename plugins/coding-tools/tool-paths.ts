import { isAbsolute, relative, resolve, sep } from "node:path";

/**
 * The one path resolver (core/session/tool-path-resolver.ts): the tools open what their declarations
 * report, so the permission rules judge exactly what a call touches. Paths outside cwd are allowed by
 * the tools themselves; the rules and the sandbox fence them.
 */
export { resolveToolPath, toolCallPath } from "../../core/session/tool-path-resolver.js";

/** How results name a file: relative to cwd when inside it (shorter, and valid as a later argument), else absolute. */
export function displayPath(cwd: string, absolute: string): string {
  const rel = relative(resolve(cwd), absolute);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return absolute;
  return sep === "/" ? rel : rel.split(sep).join("/");
}
