import { clipUtf8Tail, type ClippedText } from "../../core/wire/utf8-clip.js";

/** A tail of some text, and whether anything before it was cut. */
export type TailText = ClippedText;

/**
 * The last `maxLines` lines and at most `maxBytes` of `text`. When the byte bound cuts into a line,
 * that partial line is dropped so the result starts on a line boundary (unless nothing else is left).
 */
export function tailBounded(text: string, maxLines: number, maxBytes: number): TailText {
  let truncated = false;
  let result = text;
  const body = result.endsWith("\n") ? result.slice(0, -1) : result;
  // Find the maxLines-th newline from the end: what follows it is exactly the last maxLines lines.
  let cut = body.length;
  let seen = 0;
  while (seen < maxLines && cut > 0) {
    cut = body.lastIndexOf("\n", cut - 1);
    if (cut < 0) break;
    seen++;
  }
  if (seen === maxLines && cut >= 0) {
    result = result.slice(cut + 1);
    truncated = true;
  }
  const clipped = clipUtf8Tail(result, maxBytes);
  if (clipped.truncated) {
    truncated = true;
    const onBoundary = result[result.length - clipped.text.length - 1] === "\n";
    const newline = clipped.text.indexOf("\n");
    result = onBoundary || newline < 0 || newline === clipped.text.length - 1 ? clipped.text : clipped.text.slice(newline + 1);
  }
  return { text: result, truncated };
}

/** Clips `text` to `maxChars` UTF-16 units without splitting a surrogate pair. */
export function clipChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let cut = maxChars;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${text.slice(0, cut)}…`;
}
