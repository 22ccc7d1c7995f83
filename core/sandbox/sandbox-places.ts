import { realpathSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { SandboxState } from "../wire/session-types.js";
import { gitPlaces, repositoryOf } from "./git-places.js";

/** Names inside each writable root that stay read-only: nothing may plant hooks or change Zi's own settings. */
const PROTECTED_NAMES = [".git", ".zi"];

/** Where a sandboxed mode lets anything write: its writable roots, and what stays read-only inside them. */
export interface WritablePlaces {
  roots: string[];
  readOnly: string[];
}

/**
 * The one reading of a mode's write policy, for the bubblewrap binds of a command and for the tools
 * that write in Zi's own process (an edit, a write): in `workspace-write` the cwd and the added roots,
 * less `.git` and `.zi` in each, their repositories' git directories wherever they are (a worktree's,
 * a `--separate-git-dir`) and hooks directory (where `core.hooksPath` says: a `.husky`), and the
 * protected paths; in `read-only` nothing.
 */
export function writablePlaces(state: Pick<SandboxState, "mode" | "writableRoots">, cwd: string, protectedPaths: readonly string[]): WritablePlaces {
  if (state.mode !== "workspace-write") return { roots: [], readOnly: [] };
  const roots = [cwd, ...state.writableRoots];
  return { roots, readOnly: [...roots.flatMap((root) => PROTECTED_NAMES.map((name) => join(root, name))), ...repositoryPlaces(roots), ...protectedPaths] };
}

/** The git directories and hooks directories of the repositories holding `dirs` (GitPlaces). */
const repositoryPlaces = (dirs: readonly (string | undefined)[]): string[] => [...new Set([...new Set(dirs)].flatMap((dir) => (dir === undefined ? [] : gitPlaces(dir))))];

/** `path` with symlinks resolved where it exists (a root or protected path that does not exist yet is taken as written). */
const real = (path: string): string => {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
};
const within = (path: string, dir: string): boolean => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/**
 * The place that stays read-only around `path` (a real path): one of `protectedPaths` (ZI_HOME), a
 * `.git` or `.zi` directory anywhere on it (a nested repository's, or the repository above a cwd that
 * is one of its subdirectories), or the git or hooks directory of the repository of `roots` (the cwd,
 * the writable roots) or of `path` itself (`gitPlaces`), or undefined. The permission rules ask before an edit
 * there, sandbox or not (docs/permissions.md).
 */
export function protectedPlace(path: string, protectedPaths: readonly string[], roots: readonly string[]): string | undefined {
  const kept = protectedPaths.map(real).find((dir) => within(path, dir));
  if (kept !== undefined) return kept;
  const segments = path.split(sep);
  const at = segments.findIndex((segment) => PROTECTED_NAMES.includes(segment));
  if (at >= 0) return segments.slice(0, at + 1).join(sep);
  return repositoryPlaces([...roots, repositoryOf(path)]).map(real).find((dir) => within(path, dir));
}

/**
 * Why the sandbox of `state` refuses a tool's own write of `paths` (real paths, symlinks resolved, as
 * the tool's declaration gives them), or undefined when every one lies in a writable root and outside
 * what stays read-only. A write whose tool declares no path cannot be fenced, so it is refused.
 */
export function writeRefusal(state: Pick<SandboxState, "mode" | "writableRoots">, cwd: string, protectedPaths: readonly string[], paths: readonly string[]): string | undefined {
  if (state.mode === "off") return undefined;
  const prefix = `The sandbox (mode "${state.mode}") refused this write`;
  if (state.mode === "read-only") return `${prefix}: in read-only mode no tool writes files.`;
  if (paths.length === 0) return `${prefix}: the tool does not declare the paths it writes.`;
  const { roots: writable } = writablePlaces(state, cwd, protectedPaths);
  const roots = writable.map(real);
  for (const path of paths) {
    const kept = protectedPlace(path, protectedPaths, writable);
    if (kept !== undefined) return `${prefix}: ${path} is inside ${kept}, which stays read-only.`;
    if (!roots.some((root) => within(path, root))) return `${prefix}: ${path} is outside the working directory and the writable roots (${roots.join(", ")}).`;
  }
  return undefined;
}
