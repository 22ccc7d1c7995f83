import { describe, expect, it } from "@jest/globals";
import { ModelsFileParser } from "../../../core/models/models-file-parser.js";

const parse = (value: unknown) => new ModelsFileParser().parse(typeof value === "string" ? value : JSON.stringify(value), "models.json");

describe("ModelsFileParser", () => {
  it("fills defaults for an OpenAI-compatible local provider", () => {
    const { providers, warnings } = parse({
      providers: { ollama: { baseUrl: "http://127.0.0.1:11434/v1", apiKey: "", models: [{ id: "qwen3:8b" }] } },
    });
    expect(warnings).toEqual([]);
    expect(providers).toEqual([
      {
        name: "ollama",
        baseUrl: "http://127.0.0.1:11434/v1",
        api: "openai-completions",
        apiKey: undefined,
        apiKeyEnv: undefined,
        noAuth: true,
        headers: {},
        compat: undefined,
        models: [
          {
            id: "qwen3:8b",
            name: "qwen3:8b",
            reasoning: false,
            input: ["text"],
            contextWindow: 128000,
            maxTokens: 16384,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          },
        ],
      },
    ]);
  });

  it("keeps every documented field", () => {
    const { providers, warnings } = parse({
      providers: {
        vllm: {
          baseUrl: "https://llm.example/v1",
          api: "openai-responses",
          apiKeyEnv: "VLLM_KEY",
          headers: { "x-team": "a" },
          compat: { supportsDeveloperRole: false },
          models: [{ id: "m", name: "M", reasoning: true, input: ["text", "image"], contextWindow: 32000, maxTokens: 4096 }],
        },
        local: { baseUrl: "http://localhost:8080", noAuth: true, models: [{ id: "x" }] },
      },
    });
    expect(warnings).toEqual([]);
    expect(providers.map((provider) => [provider.name, provider.noAuth])).toEqual([["vllm", false], ["local", true]]);
    expect(providers[0]).toMatchObject({ api: "openai-responses", apiKeyEnv: "VLLM_KEY", headers: { "x-team": "a" }, compat: { supportsDeveloperRole: false } });
    expect(providers[0].models[0]).toMatchObject({ name: "M", reasoning: true, input: ["text", "image"], contextWindow: 32000, maxTokens: 4096 });
  });

  it("skips everything when the file is not JSON or has the wrong top level", () => {
    expect(parse("{ providers: ")).toEqual({ providers: [], warnings: ["models.json is not valid JSON; its providers are skipped"] });
    const wrongTop = parse({ provider: {} });
    expect(wrongTop.providers).toEqual([]);
    expect(wrongTop.warnings[0]).toMatch(/provider is not a known field/);
    expect(parse({ providers: [] }).warnings[0]).toMatch(/providers must be a JSON object/);
  });

  it("accepts a file without providers", () => {
    expect(parse({})).toEqual({ providers: [], warnings: [] });
  });

  it("skips only the broken provider, naming the field in a single line", () => {
    const { providers, warnings } = parse({
      providers: {
        good: { baseUrl: "http://127.0.0.1:1/v1", models: [{ id: "a" }] },
        noUrl: { models: [{ id: "a" }] },
        badUrl: { baseUrl: "ftp://x", models: [{ id: "a" }] },
        badApi: { baseUrl: "http://x", api: "smoke-signals", models: [{ id: "a" }] },
        typo: { baseUrl: "http://x", apikey: "k", models: [{ id: "a" }] },
        noModels: { baseUrl: "http://x", models: [] },
        badModel: { baseUrl: "http://x", models: [{ id: "a", contextWindow: -1 }] },
        badInput: { baseUrl: "http://x", models: [{ id: "a", input: ["audio"] }] },
        dup: { baseUrl: "http://x", models: [{ id: "a" }, { id: "a" }] },
        faux: { baseUrl: "http://x", models: [{ id: "a" }] },
        badHeader: { baseUrl: "http://x", headers: { a: 1 }, models: [{ id: "a" }] },
      },
    });
    expect(providers.map((provider) => provider.name)).toEqual(["good"]);
    expect(warnings).toHaveLength(10);
    for (const warning of warnings) {
      expect(warning).toMatch(/provider skipped$/);
      expect(warning).not.toContain("\n");
    }
    expect(warnings.join("|")).toMatch(/providers\["typo"\]\.apikey is not a known field/);
    expect(warnings.join("|")).toMatch(/providers\["badModel"\]\.models\[0\]\.contextWindow must be an integer > 0/);
    expect(warnings.join("|")).toMatch(/"faux" is reserved/);
  });

  it("never puts a key value into a warning", () => {
    const { warnings } = parse({ providers: { p: { baseUrl: "http://x", apiKey: "sk-never-print", models: "nope" } } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain("sk-never-print");
  });
});
