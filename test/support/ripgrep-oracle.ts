import { execFileSync } from "node:child_process";

/**
 * ripgrep as the oracle for `find` and `grep`: what `rg --hidden --glob '!.git'` reports, in the
 * form and order the tools print (sorted depth-first by name, "/" before any other character).
 */
const sortKey = (path: string): string => path.split("/").join("\u0000");
const byKey = (a: string, b: string): number => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0);

export const sortedPaths = (paths: string[]): string[] => [...paths].sort(byKey);

/** `rg` in `cwd` on `path` (never stdin); paths lose their "./". No match is an empty list. */
export function rg(cwd: string, args: string[], path = "."): string[] {
  try {
    return execFileSync("rg", ["--no-config", "--hidden", "--glob", "!.git", ...args, "--", path], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 })
      .split("\n")
      .filter(Boolean)
      .map((line) => line.replace(/^\.\//, ""));
  } catch (error) {
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
}

/** rg's file list, sorted as `find` sorts it. */
export const rgFiles = (cwd: string, args: string[] = [], path = "."): string[] => sortedPaths(rg(cwd, ["--files", ...args], path));

/** rg's matches as `grep` prints them ("path:line: text"), sorted as `grep` sorts them. */
export function rgMatches(cwd: string, args: string[], path = "."): string[] {
  return rg(cwd, ["--line-number", "--no-heading", "--with-filename", "--crlf", ...args], path)
    .map((line) => {
      const parsed = /^(.*?):(\d+):(.*)$/s.exec(line);
      if (!parsed) throw new Error(`unexpected rg line: ${line}`);
      return { path: parsed[1]!, number: Number(parsed[2]), text: parsed[3]!.replace(/\r$/, "") };
    })
    .sort((a, b) => byKey(a.path, b.path) || a.number - b.number)
    .map((m) => `${m.path}:${m.number}: ${m.text}`);
}
