export interface ClippedText {
  text: string;
  truncated: boolean;
}

const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

/** Encodes `text` only when it may exceed `maxBytes` (n UTF-16 units encode to at most 3n bytes). */
function overBound(text: string, maxBytes: number): Buffer | undefined {
  if (text.length * 3 <= maxBytes) return undefined;
  const bytes = Buffer.from(text, "utf8");
  return bytes.length > maxBytes ? bytes : undefined;
}

/**
 * The first `maxBytes` of `text` as UTF-8, never splitting a character: the cut backs off over
 * continuation bytes (10xxxxxx) to the start of the character it would have split.
 */
export function clipUtf8(text: string, maxBytes: number): ClippedText {
  const bytes = overBound(text, maxBytes);
  if (!bytes) return { text, truncated: false };
  let cut = maxBytes;
  while (cut > 0 && isContinuation(bytes[cut])) cut--;
  return { text: bytes.toString("utf8", 0, cut), truncated: true };
}

/** The last `maxBytes` of `text` as UTF-8: the cut moves forward to the start of the next whole character. */
export function clipUtf8Tail(text: string, maxBytes: number): ClippedText {
  const bytes = overBound(text, maxBytes);
  if (!bytes) return { text, truncated: false };
  let cut = bytes.length - maxBytes;
  while (cut < bytes.length && isContinuation(bytes[cut])) cut++;
  return { text: bytes.toString("utf8", cut), truncated: true };
}

/**
 * `end` as a cut of `text` in UTF-16 units, moved back by one where it would fall between the two
 * halves of a surrogate pair: a lone half is an escape (`\ud83d`) strict JSON decoders reject.
 */
export function charBoundary(text: string, end: number): number {
  if (end <= 0 || end >= text.length) return end;
  const before = text.charCodeAt(end - 1);
  const after = text.charCodeAt(end);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff ? end - 1 : end;
}

/** The first `maxChars` UTF-16 units of `text`, never half a surrogate pair. */
export function sliceChars(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : text.slice(0, charBoundary(text, maxChars));
}
