import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { CredentialStore } from "../../../core/config/credential-store.js";
import { TempZiHome } from "../../support/temp-zi-home.js";

describe("CredentialStore", () => {
  let home: TempZiHome;
  beforeEach(() => {
    home = new TempZiHome();
  });
  afterEach(() => home.cleanup());

  const store = (env: NodeJS.ProcessEnv = home.env) => new CredentialStore(home.paths, env, { warn: home.warn });

  it("reads api keys from auth.json and ignores other entry types", async () => {
    chmodSync(home.write(home.paths.authFile, {
      anthropic: { type: "api_key", key: "sk-ant-secret" },
      openai: { type: "oauth", access: "x" },
      google: { type: "api_key", key: "" },
    }), 0o600);
    const credentials = store();
    expect(await credentials.apiKey("anthropic")).toBe("sk-ant-secret");
    expect(await credentials.hasCredentials("anthropic")).toBe(true);
    expect(await credentials.hasCredentials("openai")).toBe(false);
    expect(await credentials.hasCredentials("google")).toBe(false);
    expect(home.warnings).toEqual([]);
  });

  it("ignores an auth.json that is a FIFO or a device, with one warning, without reading it", async () => {
    mkdirSync(home.home, { recursive: true });
    execFileSync("mkfifo", [home.paths.authFile]);
    const credentials = store();
    await credentials.load();
    expect(await credentials.apiKey("anthropic")).toBeUndefined();
    expect(home.warnings).toEqual([`credentials file ${home.paths.authFile} is a FIFO, not a regular file; ignoring it`]);
    rmSync(home.paths.authFile);
    symlinkSync("/dev/zero", home.paths.authFile);
    const again = store();
    expect(await again.hasCredentials("anthropic")).toBe(false);
    expect(home.warnings[1]).toBe(`credentials file ${home.paths.authFile} is a character device, not a regular file; ignoring it`);
  });

  it("writes auth.json with mode 0600, atomically, keeping other entries", async () => {
    const credentials = store();
    await credentials.setApiKey("openai", "sk-first");
    await credentials.setApiKey("groq", "gsk-second");
    expect(statSync(home.paths.authFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(home.paths.authFile, "utf8"))).toEqual({
      openai: { type: "api_key", key: "sk-first" },
      groq: { type: "api_key", key: "gsk-second" },
    });
    expect(readdirSync(home.home)).toEqual(["auth.json"]);
    expect(await store().apiKey("groq")).toBe("gsk-second");
  });

  it("tightens a world-readable auth.json when rewriting it", async () => {
    chmodSync(home.write(home.paths.authFile, { openai: { type: "api_key", key: "sk-old" } }), 0o644);
    await store().setApiKey("openai", "sk-new");
    expect(statSync(home.paths.authFile).mode & 0o777).toBe(0o600);
  });

  it("warns once when auth.json is readable by group or others", async () => {
    chmodSync(home.write(home.paths.authFile, { openai: { type: "api_key", key: "sk-loose" } }), 0o644);
    const credentials = store();
    expect(await credentials.apiKey("openai")).toBe("sk-loose");
    await credentials.apiKey("openai");
    await credentials.hasCredentials("anthropic");
    expect(home.warnings).toHaveLength(1);
    expect(home.warnings[0]).toMatch(/readable by group or others/);
    expect(home.warnings[0]).not.toContain("sk-loose");
  });

  it("warns about a malformed auth.json and treats it as empty", async () => {
    home.write(home.paths.authFile, "{ nope");
    const credentials = store();
    expect(await credentials.hasCredentials("openai")).toBe(false);
    expect(home.warnings).toHaveLength(1);
    await expect(credentials.setApiKey("openai", "sk-x")).rejects.toMatchObject({ code: "operation_failed" });
    expect(readFileSync(home.paths.authFile, "utf8")).toBe("{ nope");
  });

  it("uses models.json apiKey, apiKeyEnv and noAuth, with auth.json taking precedence", async () => {
    const credentials = store({ ...home.env, LOCAL_KEY: "env-secret-123" });
    credentials.defineProvider("literal", { apiKey: "literal-secret-456" });
    credentials.defineProvider("fromenv", { apiKeyEnv: "LOCAL_KEY" });
    credentials.defineProvider("unsetenv", { apiKeyEnv: "NOT_SET_ANYWHERE" });
    credentials.defineProvider("local", { noAuth: true });
    expect(await credentials.apiKey("literal")).toBe("literal-secret-456");
    expect(await credentials.apiKey("fromenv")).toBe("env-secret-123");
    expect(await credentials.hasCredentials("unsetenv")).toBe(false);
    expect(await credentials.apiKey("local")).toBeUndefined();
    expect(await credentials.hasCredentials("local")).toBe(true);

    await credentials.setApiKey("literal", "stored-secret-789");
    expect(await credentials.apiKey("literal")).toBe("stored-secret-789");
  });

  it("consults pi-ai's well-known variables (the lookup the model runtime passes) only for the real process environment", async () => {
    const saved = process.env.GROQ_API_KEY;
    process.env.GROQ_API_KEY = "gsk-from-process-env";
    const envKey = async (provider: string) => (await import("@mariozechner/pi-ai")).getEnvApiKey(provider);
    try {
      expect(await new CredentialStore(home.paths, process.env, { warn: home.warn, envKey }).apiKey("groq")).toBe("gsk-from-process-env");
      expect(await new CredentialStore(home.paths, { ...home.env, GROQ_API_KEY: "ignored" }, { warn: home.warn, envKey }).apiKey("groq")).toBeUndefined();
      // Without the lookup (the store alone), only auth.json and models.json keys exist.
      expect(await store(process.env).apiKey("groq")).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.GROQ_API_KEY;
      else process.env.GROQ_API_KEY = saved;
    }
  });

  it("redacts every known credential value, including ones never looked up", async () => {
    chmodSync(home.write(home.paths.authFile, { openai: { type: "api_key", key: "sk-auth-AAAA" } }), 0o600);
    const credentials = store({ ...home.env, LOCAL_KEY: "env-BBBB" });
    credentials.defineProvider("local", { apiKey: "models-CCCC" });
    credentials.defineProvider("other", { apiKeyEnv: "LOCAL_KEY" });
    credentials.addSecret("header-DDDD");
    await credentials.load();
    const text = "bad keys: sk-auth-AAAA, env-BBBB; models-CCCC and header-DDDD twice header-DDDD";
    expect(credentials.redact(text)).toBe("bad keys: [redacted], [redacted]; [redacted] and [redacted] twice [redacted]");
    expect(credentials.redact("nothing secret here")).toBe("nothing secret here");
  });

  it("redacts a longer key whole even when it contains a shorter one", () => {
    const credentials = store();
    credentials.addSecret("abcd");
    credentials.addSecret("abcd-efgh");
    expect(credentials.redact("x abcd-efgh y abcd")).toBe("x [redacted] y [redacted]");
  });
});
