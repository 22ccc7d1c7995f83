import { describe, expect, it } from "@jest/globals";
import { CREDENTIAL_ENV_VARS, NON_SECRET_ENV_VARS } from "../../../core/config/credential-env.js";

describe("CREDENTIAL_ENV_VARS", () => {
  it("names every variable pi-ai reads for a provider's key (or lists it as no secret)", async () => {
    const piAi = await import("@mariozechner/pi-ai");
    const read = new Set<string>();
    const original = process.env;
    // Every name pi-ai looks up, found by watching process.env while it resolves each provider's key.
    process.env = new Proxy({ ...original }, {
      get(target, name) {
        if (typeof name === "string") read.add(name);
        return Reflect.get(target, name);
      },
    });
    try {
      for (const provider of piAi.getProviders()) piAi.getEnvApiKey(provider);
    } finally {
      process.env = original;
    }
    const known = new Set([...CREDENTIAL_ENV_VARS, ...NON_SECRET_ENV_VARS]);
    expect([...read].filter((name) => /^[A-Z][A-Z0-9_]+$/.test(name) && !known.has(name))).toEqual([]);
    expect(read.has("OPENAI_API_KEY")).toBe(true); // the watch itself works
  });
});
