import { RpcError } from "../kernel/rpc-error.js";
import { CREDENTIAL_ENV_VARS } from "./credential-env.js";
import { JsonFile } from "./json-file.js";
import { warnOnStderr } from "./stderr-warning.js";
import type { Warn } from "./stderr-warning.js";
import type { ZiPaths } from "./zi-paths.js";
import { MIN_JSON_SECRET_LENGTH, Redactor } from "./redactor.js";

export { MIN_JSON_SECRET_LENGTH };

/** How a models.json provider authenticates. */
export interface ProviderAuth {
  apiKey?: string;
  apiKeyEnv?: string;
  /** Local servers: configured without any key. */
  noAuth?: boolean;
}

/** The provider library's own lookup of well-known variables (pi-ai's `getEnvApiKey`), loaded on first use. */
export type EnvKeyLookup = (provider: string) => Promise<string | undefined>;

export interface CredentialStoreOptions {
  warn?: Warn;
  /** Without it, only auth.json and models.json keys are known (the model runtime passes pi-ai's). */
  envKey?: EnvKeyLookup;
  /** The process's one redactor (the process shell's); a store of its own when omitted (tests). */
  redactor?: Redactor;
}

/**
 * API keys, looked up in order: `ZI_HOME/auth.json` (`{ "<provider>": { "type": "api_key", "key" } }`),
 * the provider's models.json `apiKey` / `apiKeyEnv`, then pi-ai's well-known variables (OPENAI_API_KEY, ...).
 * Every value it has seen is remembered so `redact` can scrub it from provider error text.
 */
export class CredentialStore {
  private readonly authFile: JsonFile;
  private readonly warn: Warn;
  private readonly envKey: EnvKeyLookup;
  private readonly providerAuth = new Map<string, ProviderAuth>();
  /** Every value it has seen goes to the redactor, which every output of the process scrubs with. */
  readonly redactor: Redactor;
  private authKeys: Promise<Map<string, string>> | undefined;

  constructor(
    paths: ZiPaths,
    private readonly env: NodeJS.ProcessEnv,
    options: CredentialStoreOptions = {},
  ) {
    this.authFile = new JsonFile(paths.authFile);
    this.warn = options.warn ?? warnOnStderr;
    this.envKey = options.envKey ?? (async () => undefined);
    this.redactor = options.redactor ?? new Redactor();
  }

  /** Declares how a models.json provider authenticates (replacing an earlier declaration). */
  defineProvider(provider: string, auth: ProviderAuth): void {
    this.providerAuth.set(provider, auth);
    if (auth.apiKey) this.addSecret(auth.apiKey);
    const fromEnv = auth.apiKeyEnv ? this.env[auth.apiKeyEnv] : undefined;
    if (fromEnv) this.addSecret(fromEnv);
  }

  /** Marks a value (e.g. a custom auth header) as something `redact` must scrub. */
  addSecret(value: string): void {
    this.redactor.add(value);
  }

  async apiKey(provider: string): Promise<string | undefined> {
    const key = (await this.authEntries()).get(provider) ?? this.modelsFileKey(provider) ?? (await this.wellKnownEnvKey(provider));
    if (key) this.addSecret(key);
    return key || undefined;
  }

  async hasCredentials(provider: string): Promise<boolean> {
    return this.providerAuth.get(provider)?.noAuth === true || (await this.apiKey(provider)) !== undefined;
  }

  /** Stores a key in auth.json (mode 0600, written atomically). */
  async setApiKey(provider: string, key: string): Promise<void> {
    const current = await this.authFile.read();
    // Rewriting a file we cannot parse would silently drop every other stored key.
    if (current.status === "invalid") throw new RpcError("operation_failed", `cannot store the key: auth.json ${current.reason}`);
    const entries = new Map(current.status === "ok" ? Object.entries(current.value) : []);
    entries.set(provider, { type: "api_key", key });
    await this.authFile.writeObject(Object.fromEntries(entries), { mode: 0o600, dirMode: 0o700 });
    (await this.authEntries()).set(provider, key);
    this.addSecret(key);
  }

  /**
   * Reads auth.json now, so its keys are known to `redact` before anything could print them. The
   * composition root awaits it; without it the file is read on the first key lookup.
   */
  async load(): Promise<void> {
    // The well-known key variables too: pi-ai is imported only at the first model use, too late.
    for (const name of CREDENTIAL_ENV_VARS) {
      const value = this.env[name];
      if (value) this.addSecret(value);
    }
    await this.authEntries();
  }

  /** JSON text (a frame, a journal line) scrubbed: see Redactor.redactJson. */
  redactJson(text: string): string {
    return this.redactor.redactJson(text);
  }

  /** Replaces every known credential value in `text` with `[redacted]`. */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  private modelsFileKey(provider: string): string | undefined {
    const auth = this.providerAuth.get(provider);
    if (!auth) return undefined;
    return auth.apiKey || (auth.apiKeyEnv ? this.env[auth.apiKeyEnv] : undefined) || undefined;
  }

  private async wellKnownEnvKey(provider: string): Promise<string | undefined> {
    // pi-ai reads process.env itself: with an injected environment (tests, embedders) consulting
    // it would leak the host's keys into a supposedly isolated setup, so it is skipped.
    if (this.env !== process.env) return undefined;
    return this.envKey(provider);
  }

  private authEntries(): Promise<Map<string, string>> {
    this.authKeys ??= this.readAuthFile();
    return this.authKeys;
  }

  private async readAuthFile(): Promise<Map<string, string>> {
    const keys = new Map<string, string>();
    const read = await this.authFile.read();
    if (read.status === "invalid") {
      this.warn(`credentials file ${this.authFile.path} ${read.reason}; ignoring it`);
      return keys;
    }
    if (read.status === "missing") return keys;
    if (process.platform !== "win32" && (read.mode & 0o077) !== 0) {
      this.warn(`credentials file ${this.authFile.path} is readable by group or others; run: chmod 600 ${this.authFile.path}`);
    }
    for (const [provider, entry] of Object.entries(read.value)) {
      if (typeof entry !== "object" || entry === null) continue;
      const { type, key } = entry as Record<string, unknown>;
      if (type === "api_key" && typeof key === "string" && key !== "") {
        keys.set(provider, key);
        this.addSecret(key);
      }
    }
    return keys;
  }
}
