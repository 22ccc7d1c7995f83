import { describe, expect, it } from "@jest/globals";
import { publicModel } from "../../../core/models/public-model.js";

describe("the public model descriptor (an allow-list)", () => {
  it("copies exactly the exposed fields, as a plain object, whatever else the model carries", () => {
    const input: ("text" | "image")[] = ["text", "image"];
    const model = {
      provider: "acme",
      id: "m1",
      name: "Model One",
      reasoning: true,
      input,
      contextWindow: 128000,
      maxTokens: 8192,
      baseUrl: "https://internal.example/v1",
      headers: { Authorization: "Bearer sk-secret" },
      apiKey: "sk-secret",
      compat: { supportsStore: false },
    };
    const projected = publicModel(model);
    expect(projected).toStrictEqual({ provider: "acme", id: "m1", name: "Model One", reasoning: true, input: ["text", "image"], contextWindow: 128000, maxTokens: 8192 });
    expect(JSON.stringify(projected)).not.toContain("secret");
    expect(projected.input).not.toBe(input);
  });

  it("keeps the fields in the descriptor's order, a missing one present and undefined, and leaves other keys out", () => {
    const projected = publicModel({ maxTokens: 2, input: ["text"], id: "m1", provider: "acme", extra: 1 } as never);
    expect(Object.keys(projected)).toEqual(["provider", "id", "name", "reasoning", "input", "contextWindow", "maxTokens"]);
    expect(projected.name).toBeUndefined();
    expect(JSON.stringify(projected)).toBe('{"provider":"acme","id":"m1","input":["text"],"maxTokens":2}');
  });
});
