import { afterAll, afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { ProviderWarmer } from "../../../core/models/provider-warmer.js";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync } from "node:fs";
import * as PiAi from "@mariozechner/pi-ai";
import { MODEL_LIST_CAP, ModelRegistry } from "../../../core/models/model-registry.js";
import { PiAiLoader, type PiAiLight } from "../../../core/models/pi-ai-loader.js";
import type { ResolvedModel } from "../../../core/models/model-runtime.js";
import { RpcError } from "../../../core/kernel/rpc-error.js";
import { THINKING_LEVELS } from "../../../core/wire/session-types.js";
import { TempZiHome } from "../../support/temp-zi-home.js";

const PUBLIC_KEYS = ["contextWindow", "id", "input", "maxTokens", "name", "provider", "reasoning"];


// A resolved model is warmed up in the background; it must end before the test environment does.
afterAll(() => ProviderWarmer.settled());
describe("ModelRegistry", () => {
  let home: TempZiHome;
  beforeEach(() => {
    home = new TempZiHome();
  });
  afterEach(() => home.cleanup());
  const registry = () => home.registry();

  it("lists the pi-ai catalogue with only public fields plus configured", async () => {
    const models = await registry().list();
    const catalogueSize = PiAi.getProviders().reduce((sum, provider) => sum + PiAi.getModels(provider).length, 0);
    expect(models.length).toBe(Math.min(MODEL_LIST_CAP, catalogueSize + 1));
    for (const model of models) expect(Object.keys(model).sort()).toEqual([...PUBLIC_KEYS, "configured"].sort());
    expect(models.find((model) => model.provider === "anthropic")?.configured).toBe(false);
    expect(new Set(models.map((model) => `${model.provider}/${model.id}`)).size).toBe(models.length);
  });

  it("relies on pi-ai listing each model under its own provider (ModelCatalog groups pi-ai's models by the provider it asked for)", () => {
    for (const provider of PiAi.getProviders()) {
      expect(PiAi.getModels(provider).filter((model) => model.provider !== provider)).toEqual([]);
    }
  });

  it("marks providers with credentials configured and lists them before the others", async () => {
    chmodSync(home.write(home.paths.authFile, { mistral: { type: "api_key", key: "mistral-key-1" } }), 0o600);
    const models = await registry().list();
    const firstUnconfigured = models.findIndex((model) => !model.configured);
    const mistral = models.filter((model) => model.provider === "mistral");
    expect(mistral.length).toBeGreaterThan(0);
    expect(mistral.every((model) => model.configured)).toBe(true);
    expect(models.slice(0, firstUnconfigured).map((model) => model.provider)).toEqual(["faux", ...mistral.map(() => "mistral")]);
    expect(JSON.stringify(models)).not.toContain("mistral-key-1");
  });

  it("resolves unknown models as not_found and models without credentials as operation_failed", async () => {
    const runtime = registry();
    await expect(runtime.resolve("nope", "x")).rejects.toMatchObject({ code: "not_found" });
    await expect(runtime.resolve("anthropic", "no-such-model")).rejects.toMatchObject({ code: "not_found" });
    const anthropicId = PiAi.getModels("anthropic")[0].id;
    const failure = await runtime.resolve("anthropic", anthropicId).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcError);
    expect(failure).toMatchObject({ code: "operation_failed", message: "no credentials for provider anthropic" });
  });

  it("resolves a catalogue model once credentials exist", async () => {
    chmodSync(home.write(home.paths.authFile, { anthropic: { type: "api_key", key: "sk-ant-1" } }), 0o600);
    const model = PiAi.getModels("anthropic").find((candidate) => candidate.reasoning)!;
    const resolved = await registry().resolve("anthropic", model.id);
    expect(Object.keys(resolved.descriptor).sort()).toEqual(PUBLIC_KEYS);
    expect(resolved.descriptor).toMatchObject({ provider: "anthropic", id: model.id, reasoning: true });
    expect(resolved.supportedThinkingLevels).toEqual(PiAi.getSupportedThinkingLevels(model));
  });

  it("lists only the configured models when asked, in the same order, without making the other providers' entries", async () => {
    chmodSync(home.write(home.paths.authFile, { mistral: { type: "api_key", key: "mistral-key-1" } }), 0o600);
    home.write(home.paths.modelsFile, {
      providers: {
        keyed: { baseUrl: "http://127.0.0.1:9", apiKey: "k", models: [{ id: "a" }] },
        keyless: { baseUrl: "http://127.0.0.1:9", apiKeyEnv: "ZI_TEST_UNSET_KEY", models: [{ id: "b" }] },
      },
    });
    const made: string[] = [];
    // pi-ai's catalogue as the registry reads it, with each provider's models counted when they are read.
    class CountingLoader extends PiAiLoader {
      override light(): Promise<PiAiLight> {
        return super.light().then((module) => ({ ...module, getModels: ((provider: PiAi.KnownProvider) => (made.push(provider), module.getModels(provider))) as PiAiLight["getModels"] }));
      }
    }
    const configured = await new ModelRegistry({ paths: home.paths, env: home.env, warn: home.warn, piAi: new CountingLoader() }).list({ configuredOnly: true });
    expect(made).toEqual(["mistral"]);
    const all = await registry().list();
    expect(all.some((model) => model.provider === "keyless" && !model.configured)).toBe(true);
    expect(configured).toEqual(all.filter((model) => model.configured));
    expect(new Set(configured.map((model) => model.provider))).toEqual(new Set(["faux", "keyed", "mistral"]));
  });

  it("lets a models.json provider replace a catalogue provider of the same name", async () => {
    home.write(home.paths.modelsFile, { providers: { openai: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "proxy-key", models: [{ id: "proxied" }] } } });
    const models = await registry().list();
    expect(models.filter((model) => model.provider === "openai").map((model) => model.id)).toEqual(["proxied"]);
  });

  it("warns once per broken models.json provider and keeps the rest", async () => {
    home.write(home.paths.modelsFile, {
      providers: { ok: { baseUrl: "http://127.0.0.1:9", noAuth: true, models: [{ id: "m" }] }, broken: { baseUrl: 3, models: [] } },
    });
    const runtime = registry();
    const models = await runtime.list();
    await runtime.list();
    expect(models.filter((model) => model.provider === "ok")).toEqual([
      { provider: "ok", id: "m", name: "m", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 16384, configured: true },
    ]);
    expect(models.some((model) => model.provider === "broken")).toBe(false);
    expect(home.warnings).toHaveLength(1);
    expect(home.warnings[0]).toMatch(/providers\["broken"\]\.baseUrl must be a non-empty string; provider skipped/);
  });

  it("skips a models.json that is a FIFO, with one warning, instead of waiting for a writer", async () => {
    mkdirSync(home.home, { recursive: true });
    execFileSync("mkfifo", [home.paths.modelsFile]);
    const models = await registry().list();
    expect(models.some((model) => model.provider === "faux")).toBe(true);
    expect(home.warnings).toEqual([`models file ${home.paths.modelsFile} is a FIFO, not a regular file; its providers are skipped`]);
  });

  it("warns about a models.json that is not JSON", async () => {
    home.write(home.paths.modelsFile, "{");
    const models = await registry().list();
    expect(models[0]).toMatchObject({ provider: "faux", id: "echo" });
    expect(home.warnings).toEqual([expect.stringMatching(/is not valid JSON; its providers are skipped/)]);
  });

  describe("clampThinking", () => {
    it("is off without a model and for non-reasoning models", async () => {
      const runtime = registry();
      expect(runtime.clampThinking(undefined, "high")).toBe("off");
      const echo = await runtime.resolve("faux", "echo");
      for (const level of THINKING_LEVELS) expect(runtime.clampThinking(echo, level)).toBe("off");
    });

    it("agrees with pi-ai's clampThinkingLevel across the catalogue", async () => {
      const runtime = registry();
      await runtime.list();
      let compared = 0;
      for (const provider of PiAi.getProviders()) {
        for (const model of PiAi.getModels(provider)) {
          const resolved: ResolvedModel = {
            descriptor: { provider, id: model.id, name: model.name, reasoning: model.reasoning, input: model.input, contextWindow: model.contextWindow, maxTokens: model.maxTokens },
            supportedThinkingLevels: PiAi.getSupportedThinkingLevels(model),
            model: model as PiAi.Model<PiAi.Api>,
          };
          for (const level of THINKING_LEVELS) {
            expect(runtime.clampThinking(resolved, level)).toBe(PiAi.clampThinkingLevel(model, level));
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(100);
    });

    it("picks the nearest supported level, stronger first", async () => {
      const runtime = registry();
      const sparse = { supportedThinkingLevels: ["off", "low", "high"] } as ResolvedModel;
      expect(runtime.clampThinking(sparse, "minimal")).toBe("low");
      expect(runtime.clampThinking(sparse, "medium")).toBe("high");
      expect(runtime.clampThinking(sparse, "xhigh")).toBe("high");
      expect(runtime.clampThinking(sparse, "off")).toBe("off");
    });
  });

  describe("classifyError", () => {
    const failed = (errorMessage: string): PiAi.AssistantMessage => ({
      role: "assistant",
      content: [],
      api: "openai-completions",
      provider: "local",
      model: "m",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "error",
      errorMessage,
      timestamp: 0,
    });

    it.each([
      ["429 Rate limit reached for requests", "retryable"],
      ["503 Service Unavailable", "retryable"],
      ["502 Bad Gateway", "retryable"],
      ["Overloaded", "retryable"],
      ["Connection error.", "retryable"],
      ["fetch failed", "retryable"],
      ["read ECONNRESET", "retryable"],
      ["connect ECONNREFUSED 127.0.0.1:1", "retryable"],
      ["socket hang up", "retryable"],
      ["Request timed out.", "retryable"],
      ["terminated", "retryable"],
      ["400 Your input exceeds the context window of this model", "context_overflow"],
      ["prompt is too long: 213462 tokens > 200000 maximum", "context_overflow"],
      ["400 Invalid schema for function 'x'", "fatal"],
      ["401 Incorrect API key provided", "fatal"],
      ["529 {\"type\":\"overloaded_error\"}", "retryable"],
    ])("classifies %j as %s", async (text, kind) => {
      home.write(home.paths.modelsFile, { providers: { local: { baseUrl: "http://127.0.0.1:9", noAuth: true, models: [{ id: "m" }] } } });
      const runtime = registry();
      const model = await runtime.resolve("local", "m");
      expect(runtime.classifyError(failed(text), model)).toBe(kind);
    });
  });
});
