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
