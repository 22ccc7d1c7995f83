import { type Stats, statSync } from "node:fs";
import { describeFileError } from "./text-file-reader.js";
import { displayPath, resolveToolPath } from "./tool-paths.js";

export interface SearchRoot {
  absolute: string;
  shown: string;
  stats: Stats;
}

/**
 * Resolves the `path` argument of find and grep (default: the working directory) and checks it exists.
 * One synchronous stat (of a path a search is about to walk anyway): the search's process then starts
 * in the same turn, before the frames the session queued (tool_execution_start and the model's) are
 * written, which happens while it runs; an await here put that writing, and a thread-pool round, first.
 */
export function resolveSearchRoot(cwd: string, path: string | undefined): SearchRoot {
  const absolute = resolveToolPath(cwd, path ?? ".");
  const shown = displayPath(cwd, absolute);
  let stats: Stats;
  try {
    stats = statSync(absolute);
  } catch (error) {
    throw new Error(describeFileError(error, shown));
  }
  return { absolute, shown, stats };
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
