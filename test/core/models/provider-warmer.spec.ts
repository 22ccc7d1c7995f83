import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { WARM_UP_HEADER, allowWarmUpOrigin, installGatedFetch } from "../../../core/models/gated-fetch.js";
import { ModelRegistry } from "../../../core/models/model-registry.js";
import { PiAiLoader } from "../../../core/models/pi-ai-loader.js";
import type { ResolvedModel } from "../../../core/models/model-runtime.js";
import { ProviderWarmer, type WarmUpCall } from "../../../core/models/provider-warmer.js";
import { WarmUpServer } from "../../../core/models/warm-up-server.js";
import { OpenAICompatibleServer } from "../../support/openai-compatible-server.js";
import { drain, TempZiHome, textOf, userContext } from "../../support/temp-zi-home.js";

/**
 * The warm-up runs a provider's whole call path (pi-ai, its SDK, fetch) against a loopback server of
 * Zi's own: the configured provider (pi-ai and its SDK, against a local server that records every
 * request) must see nothing of it, and its real calls must be what they were.
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
    await ProviderWarmer.settled();
    await server.stop();
    home.cleanup();
  });

  it.each(["openai-completions", "openai-responses", "anthropic-messages"])("warms %s end to end on its own server, sending the provider nothing; the real call then works as before", async (api) => {
    home.write(home.paths.modelsFile, { providers: { local: { baseUrl, api, apiKey: "k-secret", models: [{ id: "m1" }] } } });
    const warmer = new ProviderWarmer();
    const registry = new ModelRegistry({ paths: home.paths, env: home.env, warn: home.warn, piAi: new PiAiLoader(), warmer });
    const model = await registry.resolve("local", "m1");
    // True only when the warm-up server answered one request and the reply was read to its stop.
    expect(await warmer.warming(api)).toBe(true);
    await registry.resolve("local", "m1");
    await expect(warmer.warm(model, () => Promise.reject(new Error("not called")))).resolves.toBe(false); // once per API
    expect(server.requests).toEqual([]);
    if (api !== "openai-completions") return; // the local server speaks chat completions only
    server.enqueue({ type: "text", chunks: ["hi"] });
    const { message } = await drain(await registry.stream(model, userContext("hello"), { signal: new AbortController().signal, thinkingLevel: "off", sessionId: "s" }));
    expect(textOf(message)).toBe("hi");
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.url).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer k-secret");
    expect(Object.keys(request.headers).filter((name) => name.startsWith("x-zi-"))).toEqual([]);
    expect(request.body?.messages).toEqual([{ role: "user", content: "hello" }]);
  });

  it("settledWithin: settles once the running warm-ups have ended, and at its bound while one does not end", async () => {
    const resolved = { model: { api: "openai-completions", provider: "local", id: "m1", baseUrl: "http://127.0.0.1:9/v1" } } as unknown as ResolvedModel;
    // A warm-up call that ends only when its signal aborts (supersede) or when `end` is called.
    let end!: () => void;
    let reached!: () => void;
    const called = new Promise<void>((resolve) => (reached = resolve));
    const call: WarmUpCall = (_model, _context, options) =>
      new Promise((_resolve, reject) => {
        end = () => reject(new Error("ended"));
        options.signal?.addEventListener("abort", end, { once: true });
        reached();
      });
    const order: string[] = [];
    const first = new ProviderWarmer();
    void first.warm(resolved, call).then(() => order.push("warm-up ended"));
    const waited = ProviderWarmer.settledWithin(60_000).then(() => order.push("settled"));
    await called;
    expect(order).toEqual([]);
    end();
    await waited;
    expect(order).toEqual(["warm-up ended", "settled"]);

    const second = new ProviderWarmer();
    const hanging = second.warm(resolved, call).then(() => order.push("hanging ended"));
    const timeout = setTimeout(() => second.supersede("openai-completions"), 3_000); // ends it if the bound does not hold
    try {
      await ProviderWarmer.settledWithin(20);
      expect(order).not.toContain("hanging ended");
    } finally {
      clearTimeout(timeout);
      second.supersede("openai-completions");
      await hanging;
    }
  });

  it("drops a warm-up that a real call of its API supersedes; the real call is unchanged", async () => {
    home.write(home.paths.modelsFile, { providers: { local: { baseUrl, apiKey: "k-secret", models: [{ id: "m1" }] } } });
    const warmer = new ProviderWarmer();
    const registry = new ModelRegistry({ paths: home.paths, env: home.env, warn: home.warn, piAi: new PiAiLoader(), warmer });
    const model = await registry.resolve("local", "m1"); // the warm-up starts after this turn
    server.enqueue({ type: "text", chunks: ["hi"] });
    // The real call, started in the same turn: it supersedes the warm-up before it has sent anything
    // (ModelRegistry's provider path), which then ends without running to its reply (false). Left
    // running, it would read its warm-up server's reply to the end (true, as in the test above).
    const stream = await registry.stream(model, userContext("hello"), { signal: new AbortController().signal, thinkingLevel: "off", sessionId: "s" });
    expect(await warmer.warming("openai-completions")).toBe(false);
    const { message } = await drain(stream);
    expect(textOf(message)).toBe("hi");
    expect(server.requests).toHaveLength(1);
  });

  it("sends a warm-up request to its warm-up server whatever URL it names, and refuses one without a live server", async () => {
    installGatedFetch(); // what pi-ai's SDKs call (PiAiLoader installs it)
    const warmUp = await WarmUpServer.start("openai-completions");
    const disallow = allowWarmUpOrigin(warmUp.origin);
    const post = (origin: string) => fetch(`${baseUrl}/chat/completions`, { method: "POST", headers: { [WARM_UP_HEADER]: origin }, body: "{}" });
    try {
      const response = await post(warmUp.origin);
      expect(await response.text()).toContain("data: [DONE]");
      expect(warmUp.requests).toBe(1);
    } finally {
      disallow();
      await warmUp.close();
    }
    await expect(post(warmUp.origin)).rejects.toThrow("without its warm-up server");
    await expect(post(new URL(baseUrl).origin)).rejects.toThrow("without its warm-up server");
    expect(server.requests).toEqual([]);
  });
});
