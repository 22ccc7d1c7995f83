import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { describeFileError } from "./text-file-reader.js";
import { displayPath, resolveToolPath } from "./tool-paths.js";

export interface SearchRoot {
  absolute: string;
  shown: string;
  stats: Stats;
}

/** Resolves the `path` argument of find and grep (default: the working directory) and checks it exists. */
export async function resolveSearchRoot(cwd: string, path: string | undefined): Promise<SearchRoot> {
  const absolute = resolveToolPath(cwd, path ?? ".");
  const shown = displayPath(cwd, absolute);
  const stats = await stat(absolute).catch((error: unknown) => {
    throw new Error(describeFileError(error, shown));
  });
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
