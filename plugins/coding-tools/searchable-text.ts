import { readFile, stat } from "node:fs/promises";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";

/**
 * A file's text as ripgrep searches it, or undefined for what ripgrep skips: files over the size
 * bound, binary files and anything that is not a regular file. See `decodeSearchable`.
 */
export async function readSearchableText(absolute: string): Promise<string | undefined> {
  const stats = await stat(absolute).catch(() => undefined);
  if (!stats?.isFile() || stats.size > CODING_TOOL_LIMITS.maxScanFileBytes) return undefined;
  const bytes = await readFile(absolute).catch(() => undefined);
  return bytes ? decodeSearchable(bytes) : undefined;
}

/**
 * The text ripgrep searches in a file's bytes, or undefined for a binary file (a NUL byte anywhere).
 * A UTF-16 byte-order mark makes the file UTF-16, and a UTF-8 one is dropped, as ripgrep transcodes
 * and strips them. Self-contained (globals only): the search workers run its source text as well.
 */
export function decodeSearchable(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  if (bytes.indexOf(0) >= 0) return undefined;
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The text's lines as ripgrep counts them: split at LF, a CR before it dropped, no empty line after a final LF. */
export function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}
