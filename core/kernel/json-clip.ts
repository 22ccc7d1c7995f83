import { clipUtf8, sliceChars } from "../wire/utf8-clip.js";

/** Room kept for a container's punctuation and a key: below this, no further member is added. */
const MEMBER_RESERVE = 512;
/** Longer keys are cut (a client-chosen key can be as long as a record). */
const MAX_KEY_CHARS = 64;

/**
 * A copy of `value` whose JSON encoding is at most about `maxBytes` by construction: members are
 * copied in order while the budget lasts, a string that does not fit whole is clipped (never inside a
 * character, sized for the worst case of JSON escaping, 6 bytes per byte), and members past the
 * budget are left out. Used only for the rare value that would not fit its record or page, so it
 * favours a bound that cannot fail over speed.
 */
export function clipJson(value: unknown, maxBytes: number): unknown {
  const budget = { left: maxBytes };
  return clip(value, budget);
}

function clip(value: unknown, budget: { left: number }): unknown {
  if (typeof value === "string") return clipString(value, budget);
  if (value === null || typeof value !== "object") {
    const encoded = JSON.stringify(value) ?? "null";
    budget.left -= encoded.length;
    return value;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    budget.left -= 2;
    for (const item of value) {
      if (budget.left < MEMBER_RESERVE) break;
      budget.left -= 1;
      out.push(clip(item, budget));
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  budget.left -= 2;
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    if (member === undefined) continue;
    if (budget.left < MEMBER_RESERVE) break;
    const name = sliceChars(key, MAX_KEY_CHARS);
    budget.left -= name.length * 6 + 4;
    out[name] = clip(member, budget);
  }
  return out;
}

function clipString(text: string, budget: { left: number }): string {
  // The exact encoded size only when it might fit; a huge string is clipped without encoding it whole.
  if (text.length * 6 + 2 <= budget.left) {
    budget.left -= Buffer.byteLength(JSON.stringify(text));
    return text;
  }
  const clipped = clipUtf8(text, Math.max(0, Math.floor((budget.left - 2) / 6))).text;
  budget.left -= Buffer.byteLength(JSON.stringify(clipped));
  return clipped;
}

/**
 * What a client gets for a value too large for its record or page: the value clipped to `maxBytes`
 * (long strings cut, members past the budget left out), marked `truncated: true`, with the size of
 * the value's full JSON in `encodedBytes`.
 */
export function standIn(value: object, encodedBytes: number, maxBytes: number): object {
  return { ...(clipJson(value, maxBytes) as object), truncated: true, encodedBytes };
}
