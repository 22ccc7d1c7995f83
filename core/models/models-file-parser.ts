import { JsonShapeReader } from "./json-shape-reader.js";
import type { UserModelConfig, UserProviderConfig } from "./model-config-types.js";
import { parseJson } from "../wire/json-depth.js";

export interface ModelsFileParseResult {
  providers: UserProviderConfig[];
  /** One line per problem; the registry prints them on stderr. Never contains key values. */
  warnings: string[];
}

const PROVIDER_KEYS = ["baseUrl", "api", "apiKey", "apiKeyEnv", "noAuth", "headers", "compat", "models"] as const;
const MODEL_KEYS = ["id", "name", "reasoning", "input", "contextWindow", "maxTokens", "cost"] as const;
const COST_KEYS = ["input", "output", "cacheRead", "cacheWrite"] as const;
// pi-ai's built-in wire protocols that a user endpoint can speak.
const SUPPORTED_APIS = [
  "openai-completions",
  "openai-responses",
  "anthropic-messages",
  "google-generative-ai",
  "mistral-conversations",
] as const;
// Mirrors the RPC bound on model provider and id.
const MAX_NAME_BYTES = 256;
const RESERVED_PROVIDERS = new Set(["faux"]);

/**
 * Parses `ZI_HOME/models.json`. A file that is not JSON or lacks a `providers` object yields no
 * providers; otherwise each provider is validated on its own and a broken one is skipped with a
 * warning, so one typo does not disable every endpoint.
 */
export class ModelsFileParser {
  parse(text: string, label: string): ModelsFileParseResult {
    let json: unknown;
    try {
      json = parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch {
      return { providers: [], warnings: [`${label} is not valid JSON; its providers are skipped`] };
    }
    let providers: JsonShapeReader;
    try {
      const root = JsonShapeReader.object(json, "").allowKeys(["providers"]);
      providers = root.optionalObject("providers") ?? JsonShapeReader.object({}, "providers");
    } catch (error) {
      return { providers: [], warnings: [`${label}: ${(error as Error).message}; its providers are skipped`] };
    }
    const result: ModelsFileParseResult = { providers: [], warnings: [] };
    for (const [name, value] of providers.entries()) {
      try {
        result.providers.push(this.provider(name, value));
      } catch (error) {
        result.warnings.push(`${label}: ${(error as Error).message}; provider skipped`);
      }
    }
    return result;
  }

  private provider(name: string, value: unknown): UserProviderConfig {
    const where = `providers[${JSON.stringify(name)}]`;
    if (name === "" || Buffer.byteLength(name) > MAX_NAME_BYTES) {
      throw new Error(`${where}: a provider name must be 1 to ${MAX_NAME_BYTES} bytes`);
    }
    if (RESERVED_PROVIDERS.has(name)) throw new Error(`${where}: provider name "${name}" is reserved`);
    const reader = JsonShapeReader.object(value, where).allowKeys(PROVIDER_KEYS);
    const baseUrl = reader.string("baseUrl", { nonEmpty: true });
    if (!/^https?:$/.test(this.protocolOf(baseUrl))) throw new Error(`${reader.path("baseUrl")} must be an http(s) URL`);
    const api = reader.optionalString("api") ?? "openai-completions";
    if (!(SUPPORTED_APIS as readonly string[]).includes(api)) {
      throw new Error(`${reader.path("api")} must be one of ${SUPPORTED_APIS.join(", ")}`);
    }
    const apiKey = reader.optionalString("apiKey");
    const apiKeyEnv = reader.optionalString("apiKeyEnv", { nonEmpty: true });
    const noAuth = reader.optionalBoolean("noAuth") === true || apiKey === "";
    const headers = this.headers(reader.optionalObject("headers"));
    const compat = reader.optionalObject("compat")?.plain();
    const modelList = reader.array("models");
    if (modelList.length === 0) throw new Error(`${reader.path("models")} must list at least one model`);
    const ids = new Set<string>();
    const models = modelList.map((model, index) => {
      const parsed = this.model(model, `${reader.path("models")}[${index}]`);
      if (ids.has(parsed.id)) throw new Error(`${reader.path("models")}[${index}].id duplicates "${parsed.id}"`);
      ids.add(parsed.id);
      return parsed;
    });
    return { name, baseUrl, api, apiKey: apiKey || undefined, apiKeyEnv, noAuth, headers, compat, models };
  }

  private model(value: unknown, where: string): UserModelConfig {
    const reader = JsonShapeReader.object(value, where).allowKeys(MODEL_KEYS);
    const id = reader.string("id", { nonEmpty: true, maxBytes: MAX_NAME_BYTES });
    const input = reader.optionalArray("input") ?? ["text"];
    if (input.length === 0 || !input.every((kind) => kind === "text" || kind === "image")) {
      throw new Error(`${reader.path("input")} must be a non-empty list of "text" and "image"`);
    }
    const costReader = reader.optionalObject("cost")?.allowKeys(COST_KEYS);
    const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    for (const key of COST_KEYS) cost[key] = costReader?.optionalNumber(key, { min: 0 }) ?? 0;
    return {
      id,
      name: reader.optionalString("name", { nonEmpty: true }) ?? id,
      reasoning: reader.optionalBoolean("reasoning") ?? false,
      input: [...new Set(input as ("text" | "image")[])],
      contextWindow: reader.optionalNumber("contextWindow", { integer: true, exclusiveMin: 0 }) ?? 128_000,
      maxTokens: reader.optionalNumber("maxTokens", { integer: true, exclusiveMin: 0 }) ?? 16_384,
      cost,
    };
  }

  private headers(reader: JsonShapeReader | undefined): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of reader?.entries() ?? []) {
      if (typeof value !== "string") throw new Error(`${reader!.path(name)} must be a string`);
      headers[name] = value;
    }
    return headers;
  }

  private protocolOf(url: string): string {
    try {
      return new URL(url).protocol;
    } catch {
      return "";
    }
  }
}
