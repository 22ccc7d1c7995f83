export interface ClippedText {
  text: string;
  truncated: boolean;
}

/**
 * Clips `text` to at most `maxBytes` of UTF-8 without splitting a character: the cut backs off
 * over continuation bytes (10xxxxxx) to the start of the character it would have split.
 */
export function clipUtf8(text: string, maxBytes: number): ClippedText {
  // A string of n UTF-16 units encodes to at most 3n bytes: skip the encoding when it surely fits.
  if (text.length * 3 <= maxBytes) return { text, truncated: false };
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return { text, truncated: false };
  let cut = maxBytes;
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut--;
  return { text: bytes.toString("utf8", 0, cut), truncated: true };
}
