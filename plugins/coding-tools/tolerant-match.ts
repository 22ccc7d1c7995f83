/**
 * The tolerant form of a text, used by `edit` only when the exact text is not found: each line's
 * trailing whitespace dropped (CR included), typographic quotes, dashes and special spaces written
 * as their ASCII forms. Every kept character maps back to its index in the original, so a match
 * found in the tolerant form replaces exactly the original characters it covers, and the rest of
 * the file keeps its quotes, dashes and spaces.
 */
const REPLACEMENTS = new Map<string, string>([
  ...[..."\u2018\u2019\u201A\u201B\u2032"].map((c): [string, string] => [c, "'"]),
  ...[..."\u201C\u201D\u201E\u201F\u2033"].map((c): [string, string] => [c, '"']),
  ...[..."\u2010\u2011\u2012\u2013\u2014\u2015\u2212"].map((c): [string, string] => [c, "-"]),
  ...[..."\u00A0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000"].map((c): [string, string] => [c, " "]),
]);
const TRAILING = /[\s\u00A0\u2002-\u200A\u202F\u205F\u3000]/;

export interface TolerantText {
  text: string;
  /** `origin[i]` is the original index of tolerant character i. */
  origin: number[];
}

export function tolerantForm(original: string): TolerantText {
  let text = "";
  const origin: number[] = [];
  let start = 0;
  while (start <= original.length) {
    const newline = original.indexOf("\n", start);
    const end = newline < 0 ? original.length : newline;
    let keep = end;
    while (keep > start && TRAILING.test(original[keep - 1]!)) keep--;
    for (let i = start; i < keep; i++) {
      const c = original[i]!;
      text += REPLACEMENTS.get(c) ?? c;
      origin.push(i);
    }
    if (newline < 0) break;
    text += "\n";
    origin.push(newline);
    start = newline + 1;
  }
  return { text, origin };
}

/** Start indexes of non-overlapping occurrences of `needle`. */
export function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}
