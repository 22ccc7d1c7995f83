import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { ModelRegistry } from "../../../core/models/model-registry.js";
import { PiAiLoader } from "../../../core/models/pi-ai-loader.js";
import { ProviderWarmer } from "../../../core/models/provider-warmer.js";
import { OpenAICompatibleServer } from "../../support/openai-compatible-server.js";
import { drain, TempZiHome, textOf, userContext } from "../../support/temp-zi-home.js";

/**
 * The warm-up loads a provider's SDK path with a call stopped before it sends: a real provider
 * (pi-ai and its SDK, against a local server that records every request) must see nothing of it.
 */
describe("ProviderWarmer", () => {
  let home: TempZiHome;
  let server: OpenAICompatibleServer;
  let baseUrl: string;

  beforeEach(async () => {
    home = new TempZiHome();
    server = new OpenAICompatibleServer();
    baseUrl = await server.start();
  });

  afterEach(async () => {
    await server.stop();
    home.cleanup();
  });

  it.each(["openai-completions", "openai-responses", "anthropic-messages"])("warms %s without sending a request; the real call then works as before", async (api) => {
    home.write(home.paths.modelsFile, { providers: { local: { baseUrl, api, apiKey: "k-secret", models: [{ id: "m1" }] } } });
    const piAi = new PiAiLoader();
    const registry = new ModelRegistry({ paths: home.paths, env: home.env, warn: home.warn, piAi });
    const model = await registry.resolve("local", "m1");
    const warmer = new ProviderWarmer();
    expect(await warmer.warm(model.model, piAi.simpleStream(api))).toBe(true); // the SDK built its payload
    expect(await warmer.warm(model.model, piAi.simpleStream(api))).toBe(false); // once per API
    expect(server.requests).toEqual([]);
    if (api !== "openai-completions") return; // the local server speaks chat completions only
    server.enqueue({ type: "text", chunks: ["hi"] });
    const { message } = await drain(await registry.stream(model, userContext("hello"), { signal: new AbortController().signal, thinkingLevel: "off", sessionId: "s" }));
    expect(textOf(message)).toBe("hi");
    expect(server.requests).toHaveLength(1);
  });
});
