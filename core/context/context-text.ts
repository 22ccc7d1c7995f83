import { readFilePrefix } from "../config/bounded-file-reader.js";

export type TextRead =
  | { status: "missing" }
  | { status: "ok"; text: string; clipped: boolean }
  | { status: "refused"; reason: string };

/**
 * A text file for the prompt, through the bounded regular-file reader (FIFOs, devices and directories
 * are refused without waiting): its first `maxBytes` as UTF-8, never ending inside a character, and
 * whether there was more. A leading byte-order mark is dropped.
 */
export async function readPromptText(path: string, maxBytes: number): Promise<TextRead> {
  const read = await readFilePrefix(path, maxBytes);
  if (read.status !== "ok") return read;
  // A streaming decode holds back a character the cut split, instead of turning it into U+FFFD.
  const text = new TextDecoder("utf-8").decode(read.bytes, { stream: read.truncated });
  return { status: "ok", text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, clipped: read.truncated };
}
