import { type Stats, statSync } from "node:fs";
import { realPath } from "../../core/session/tool-path-resolver.js";
import type { AgentToolContext } from "../../core/session/agent-tool.js";
import { describeFileError } from "./text-file-reader.js";
import { displayPath, resolveToolPath } from "./tool-paths.js";

export interface SearchRoot {
  absolute: string;
  shown: string;
  stats: Stats;
  /**
   * Whether the permission rules let the search show what lies at `relative` ("/"-separated, below
   * the root): judged on its real path, the root's real path joined with it (neither backend follows
   * a symlink met below the root). Undefined when the rules keep nothing out.
   */
  admits?: (relative: string) => boolean;
}

/** The permission layer's `mayRead` as a test of root-relative paths; its answer is the only one. */
export function admitting(absolute: string, mayRead: AgentToolContext["mayRead"]): SearchRoot["admits"] {
  if (!mayRead) return undefined;
  const root = realPath(absolute);
  const prefix = root.endsWith("/") ? root : `${root}/`;
  return (relative) => relative === "" || mayRead(prefix + relative);
}

/**
 * Resolves the `path` argument of find and grep (default: the working directory) and checks it exists.
 * One synchronous stat (of a path a search is about to walk anyway): the search's process then starts
 * in the same turn, before the frames the session queued (tool_execution_start and the model's) are
 * written, which happens while it runs; an await here put that writing, and a thread-pool round, first.
 */
export function resolveSearchRoot(cwd: string, path: string | undefined, mayRead?: AgentToolContext["mayRead"]): SearchRoot {
  const absolute = resolveToolPath(cwd, path ?? ".");
  const shown = displayPath(cwd, absolute);
  let stats: Stats;
  try {
    stats = statSync(absolute);
  } catch (error) {
    throw new Error(describeFileError(error, shown));
  }
  const admits = admitting(absolute, mayRead);
  return admits ? { absolute, shown, stats, admits } : { absolute, shown, stats };
}

/** Joins result lines, keeping whole lines within `maxBytes`; returns how many lines fit. */
export function joinBounded(lines: readonly string[], maxBytes: number): { text: string; count: number } {
  let bytes = 0;
  let count = 0;
  for (const line of lines) {
    const cost = Buffer.byteLength(line, "utf8") + (count > 0 ? 1 : 0);
    if (bytes + cost > maxBytes) break;
    bytes += cost;
    count++;
  }
  return { text: lines.slice(0, count).join("\n"), count };
}
