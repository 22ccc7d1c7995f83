import { describe, expect, it } from "@jest/globals";
import { clipChars, tailBounded } from "../../../plugins/coding-tools/text-bounds.js";
import { clipUtf8Tail } from "../../../core/wire/utf8-clip.js";

describe("text bounds", () => {
  it("clips a tail on a character boundary", () => {
    expect(clipUtf8Tail("a€b", 4)).toEqual({ text: "€b", truncated: true });
    expect(clipUtf8Tail("a€b", 3)).toEqual({ text: "b", truncated: true });
    expect(clipUtf8Tail("😀😀", 5)).toEqual({ text: "😀", truncated: true });
    expect(clipUtf8Tail("abc", 3)).toEqual({ text: "abc", truncated: false });
  });

  it("keeps the last lines within both bounds, starting on a line boundary", () => {
    expect(tailBounded("1\n2\n3\n4\n", 2, 100)).toEqual({ text: "3\n4\n", truncated: true });
    expect(tailBounded("1\n2\n", 2, 100)).toEqual({ text: "1\n2\n", truncated: false });
    expect(tailBounded("\nb", 1, 100)).toEqual({ text: "b", truncated: true });
    expect(tailBounded("aaaa\nbbbb\ncc", 10, 8)).toEqual({ text: "bbbb\ncc", truncated: true });
    expect(tailBounded("aaaa\nbbbb\ncc", 10, 7)).toEqual({ text: "bbbb\ncc", truncated: true });
    expect(tailBounded("aaaa\nbbbb\ncc", 10, 6)).toEqual({ text: "cc", truncated: true });
    expect(tailBounded("abcdefgh", 10, 3)).toEqual({ text: "fgh", truncated: true });
  });

  it("clips characters without splitting a surrogate pair", () => {
    expect(clipChars("ab😀", 3)).toBe("ab…");
    expect(clipChars("abc", 3)).toBe("abc");
  });
});
