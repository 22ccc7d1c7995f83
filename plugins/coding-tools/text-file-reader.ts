import type { Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";

/**
 * Turns file-system failures into messages the model can act on, and guards the "is this a text
 * file I may load?" questions that read, edit and grep share.
 */
/** A regular file's stats, or a clear error for a missing path, a directory or a special file. */
export async function statFile(absolute: string, shown: string): Promise<Stats> {
  const stats = await stat(absolute).catch((error: unknown) => {
    throw new Error(describeFileError(error, shown));
  });
  if (stats.isDirectory()) throw new Error(`${shown} is a directory, not a file (use ls to list it).`);
  if (!stats.isFile()) throw new Error(`${shown} is not a regular file.`);
  return stats;
}

/** Loads a whole text file (for edit); refuses binaries and files over `maxScanFileBytes`. */
export async function readTextFile(absolute: string, shown: string): Promise<string> {
  const stats = await statFile(absolute, shown);
  if (stats.size > CODING_TOOL_LIMITS.maxScanFileBytes) {
    throw new Error(`${shown} is too large (${stats.size} bytes; the limit is ${CODING_TOOL_LIMITS.maxScanFileBytes}).`);
  }
  const bytes = await readFile(absolute).catch((error: unknown) => {
    throw new Error(describeFileError(error, shown));
  });
  if (looksBinary(bytes)) throw new Error(`${shown} is a binary file.`);
  return bytes.toString("utf8");
}

/** A NUL byte among the first bytes marks a binary file (the heuristic git and grep use). */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, CODING_TOOL_LIMITS.binarySniffBytes);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

export function describeFileError(error: unknown, shown: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return `${shown}: no such file or directory.`;
    case "ENOTDIR":
      return `${shown}: a parent of this path is not a directory.`;
    case "EACCES":
    case "EPERM":
      return `${shown}: permission denied.`;
    case "EISDIR":
      return `${shown} is a directory.`;
    case "ELOOP":
      return `${shown}: too many levels of symbolic links.`;
    default:
      return `${shown}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
