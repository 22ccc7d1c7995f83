import { describe, expect, it } from "@jest/globals";
import { assertJsonDepth, JsonDepthError, MAX_JSON_DEPTH, parseJson } from "../../../core/wire/json-depth.js";

const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("json-depth", () => {
  it("accepts JSON up to the bound and refuses one level more, counting the top level as 1", () => {
    expect(parseJson(nestedArrays(MAX_JSON_DEPTH))).toBeDefined();
    expect(() => parseJson(nestedArrays(MAX_JSON_DEPTH + 1))).toThrow(JsonDepthError);
    expect(() => parseJson(nestedArrays(3), 2)).toThrow("JSON nests deeper than 2 levels");
    expect(parseJson('{"a":{"b":1}}', 2)).toEqual({ a: { b: 1 } });
  });

  it("walks 20,000 levels without recursion and names the top-level key that nests too deep", () => {
    const text = `{"ok":1,"params":{"text":${nestedArrays(20_000)}}}`;
    let caught: unknown;
    try {
      parseJson(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(JsonDepthError);
    expect((caught as JsonDepthError).topLevelKey).toBe("params");
  });

  it("is a SyntaxError, so callers that treat parse errors as invalid JSON need no other change", () => {
    expect(() => parseJson(nestedArrays(100))).toThrow(SyntaxError);
    expect(() => parseJson("{")).toThrow(SyntaxError);
  });

  it("counts containers, not text: long strings and wide arrays are shallow", () => {
    expect(() => assertJsonDepth({ text: "[".repeat(100_000), wide: Array.from({ length: 10_000 }, () => [1]) })).not.toThrow();
    expect(() => assertJsonDepth("[[[[", 1)).not.toThrow();
  });

  it("sees own `__proto__` keys made by JSON.parse", () => {
    const value = JSON.parse(`{"__proto__":${nestedArrays(5)}}`);
    expect(() => assertJsonDepth(value, 5)).toThrow(JsonDepthError);
  });
});
