import { describe, expect, it } from "@jest/globals";
import { clipJson, standIn } from "../../../core/kernel/json-clip.js";

const size = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

describe("clipJson", () => {
  it("returns a value that fits its budget unchanged", () => {
    const value = { type: "x", list: [1, "two", { three: null, four: true }], text: "é😀" };
    expect(clipJson(value, 4096)).toEqual(value);
  });

  it("bounds the encoding whatever the shape: escaped strings, many keys, long arrays, long keys", () => {
    const shapes: unknown[] = [
      { text: '"'.repeat(2_000_000) },
      { text: "\u0001".repeat(1_000_000) },
      Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])),
      Array.from({ length: 100_000 }, () => ({ field: "params.x", problem: "unknown field" })),
      { ["k".repeat(1_000_000)]: 1 },
      { a: { b: { c: ["😀".repeat(500_000)] } } },
    ];
    for (const shape of shapes) expect(size(clipJson(shape, 64 * 1024))).toBeLessThanOrEqual(64 * 1024);
  });

  it("keeps members in order and clips a string to a prefix, never inside a character", () => {
    const clipped = clipJson({ id: "e1", content: [{ type: "text", text: "😀".repeat(10_000) }] }, 4096) as any;
    expect(clipped.id).toBe("e1");
    const text: string = clipped.content[0].text;
    expect(text.length).toBeGreaterThan(0);
    expect("😀".repeat(10_000).startsWith(text)).toBe(true);
    expect(text.length % 2).toBe(0);
  });

  it("marks a stand-in with truncated and the full size", () => {
    const event = { type: "entry_appended", entry: { text: "x".repeat(100_000) } };
    const replacement = standIn(event, size(event), 1024) as any;
    expect(replacement).toMatchObject({ type: "entry_appended", truncated: true, encodedBytes: size(event) });
    expect(size(replacement)).toBeLessThan(1024 + 64);
  });
});
