import type * as PiAi from "@mariozechner/pi-ai";
import { decodeText, FILE_LIMITS, readBoundedFile } from "../config/bounded-file-reader.js";
import { CredentialStore } from "../config/credential-store.js";
import type { Redactor } from "../config/redactor.js";
import { warnOnStderr } from "../config/stderr-warning.js";
import { BufferedModelStream, type ModelEventStream } from "./buffered-model-stream.js";
import { GATED_APIS, READ_GATE_HEADER, registerReadGate } from "./gated-fetch.js";
import { ReadGate } from "./read-gate.js";
import { streamErrorDiagnostic } from "./provider-error-classifier.js";
import type { Warn } from "../config/stderr-warning.js";
import type { ZiPaths } from "../config/zi-paths.js";
import { RpcError } from "../kernel/rpc-error.js";
import type { CatalogModel, ThinkingLevel } from "../wire/session-types.js";
import { FauxModels } from "./faux-models.js";
import { FauxScript } from "./faux-script.js";
import { ModelCatalog } from "./model-catalog.js";
import type { CatalogEntry } from "./model-catalog.js";
import type { UserProviderConfig } from "./model-config-types.js";
import type { ModelRuntime, ModelStreamOptions, ProviderErrorKind, ResolvedModel } from "./model-runtime.js";
import type { ModelListOptions } from "../ports/model.port.js";
import { ModelsFileParser } from "./models-file-parser.js";
import { PiAiLoader } from "./pi-ai-loader.js";
import type { PiAiLight, SimpleStream } from "./pi-ai-loader.js";
import { ProviderErrorClassifier } from "./provider-error-classifier.js";
import { ProviderWarmer, type WarmUpCall } from "./provider-warmer.js";
import { clampThinkingLevel } from "./thinking-clamp.js";

/**
 * `model.list` returns at most this many descriptors (about 200 bytes each, so well under the
 * 8 MiB message bound). Order decides what a cap would drop: faux, models.json providers, pi-ai
 * providers with credentials, then pi-ai providers without. pi-ai 0.73.1 lists 969 models.
 */
export const MODEL_LIST_CAP = 2000;

// Local servers need no key, but pi-ai's OpenAI-compatible client refuses to start without one.
const NO_AUTH_PLACEHOLDER_KEY = "zi-no-auth";
const SENSITIVE_HEADER = /auth|key|token|secret|cookie/i;

export interface ModelRegistryOptions {
  paths: ZiPaths;
  /** Defaults to process.env. Also used for models.json `apiKeyEnv`. */
  env?: NodeJS.ProcessEnv;
  /** `--faux-script FILE` / `ZI_FAUX_SCRIPT`: adds `faux/scripted`. Validated here, at construction. */
  fauxScriptFile?: string;
  credentials?: CredentialStore;
  /** The process's one redactor, which the credential store feeds (a store of its own when omitted). */
  redactor?: Redactor;
  piAi?: PiAiLoader;
  /** ProviderWarmer.process unless given (a test's own). */
  warmer?: ProviderWarmer;
  warn?: Warn;
}

interface LoadedCatalog {
  piAi: PiAiLight;
  catalog: ModelCatalog;
  faux: FauxModels;
}

/** The ModelRuntime: pi-ai's catalogue, models.json providers and the offline faux models. */
export class ModelRegistry implements ModelRuntime {
  readonly credentials: CredentialStore;
  private readonly paths: ZiPaths;
  private readonly piAi: PiAiLoader;
  private readonly warn: Warn;
  private readonly script: FauxScript | undefined;
  private readonly classifier = new ProviderErrorClassifier();
  private readonly warmer: ProviderWarmer;
  private loading: Promise<LoadedCatalog> | undefined;
  private providers: Promise<UserProviderConfig[]> | undefined;

  get redactor(): Redactor {
    return this.credentials.redactor;
  }

  constructor(options: ModelRegistryOptions) {
    this.paths = options.paths;
    this.piAi = options.piAi ?? new PiAiLoader();
    this.warmer = options.warmer ?? ProviderWarmer.process;
    this.warn = options.warn ?? warnOnStderr;
    this.credentials =
      options.credentials ?? new CredentialStore(options.paths, options.env ?? process.env, {
        warn: this.warn,
        envKey: async (provider) => (await this.piAi.light()).getEnvApiKey(provider),
        ...(options.redactor ? { redactor: options.redactor } : {}),
      });
    this.script = options.fauxScriptFile ? FauxScript.load(options.fauxScriptFile) : undefined;
  }

  async list(options: ModelListOptions = {}): Promise<CatalogModel[]> {
    const { catalog } = await this.load();
    const groups = new Map<string, CatalogModel[]>([["faux", []], ["user", []], ["configured", []], ["unconfigured", []]]);
    for (const provider of catalog.byProvider()) {
      const configured = provider.source === "faux" || (await this.credentials.hasCredentials(provider.name));
      if (!configured && options.configuredOnly) continue;
      const group = provider.source === "builtin" ? (configured ? "configured" : "unconfigured") : provider.source;
      groups.get(group)!.push(...provider.entries().map((entry) => ({ ...entry.descriptor, input: [...entry.descriptor.input], configured })));
    }
    return [...groups.values()].flat().slice(0, MODEL_LIST_CAP);
  }

  async resolve(provider: string, id: string): Promise<ResolvedModel> {
    const { piAi, catalog } = await this.load();
    const entry = catalog.find(provider, id);
    if (!entry) throw new RpcError("not_found", `unknown model ${provider}/${id}`);
    if (entry.source !== "faux" && !(await this.credentials.hasCredentials(provider))) {
      throw new RpcError("operation_failed", `no credentials for provider ${provider}`);
    }
    const resolved = this.resolved(piAi, entry);
    if (entry.source !== "faux") void this.warmer.warm(resolved, this.warmUpCall, () => this.piAi.prepare(entry.model.api));
    return resolved;
  }

  async stream(model: ResolvedModel, context: PiAi.Context, options: ModelStreamOptions): Promise<ModelEventStream> {
    const gate = new ReadGate();
    options.signal.addEventListener("abort", () => gate.release(), { once: true });
    return new BufferedModelStream(await this.providerStream(model, context, options, gate), gate, (message) => this.scrubbed(message, gate));
  }

  private async providerStream(model: ResolvedModel, context: PiAi.Context, options: ModelStreamOptions, gate: ReadGate): Promise<PiAi.AssistantMessageEventStream> {
    const { piAi, faux } = await this.load();
    const level = this.clampThinking(model, options.thinkingLevel);
    const base: PiAi.SimpleStreamOptions = {
      signal: options.signal,
      sessionId: options.sessionId,
      reasoning: level === "off" ? undefined : level,
    };
    if (faux.models.includes(model.model)) return faux.stream(model.model, context, options.signal, gate, options.agent);

    const provider = model.model.provider;
    const apiKey =
      (await this.credentials.apiKey(provider)) ??
      ((await this.credentials.hasCredentials(provider)) ? NO_AUTH_PLACEHOLDER_KEY : undefined);
    if (!apiKey) return this.failedStream(piAi, model.model, `no credentials for provider ${provider}`);
    let source: PiAi.AssistantMessageEventStream;
    this.warmer.supersede(model.model.api);
    try {
      // Retries belong to the session (auto_retry events); SDK-internal retries would hide them.
      source = this.gatedStream(await this.piAi.simpleStream(model.model.api), model.model, context, { ...base, apiKey, maxRetries: 0 }, gate);
    } catch (error) {
      return this.failedStream(piAi, model.model, this.credentials.redact(error instanceof Error ? error.message : String(error)));
    }
    return source;
  }

  /**
   * The warm-up's call (ProviderWarmer): the stream function, the read gate and the buffered stream
   * of a real call (`stream`), with the warmer's model, context and options.
   */
  private readonly warmUpCall: WarmUpCall = async (model, context, options) => {
    const gate = new ReadGate();
    return new BufferedModelStream(this.gatedStream(await this.piAi.simpleStream(model.api), model, context, options, gate), gate);
  };

  /** A call whose SDK fetches through the global fetch reads its response body under `gate` (gated-fetch.ts). */
  private gatedStream(
    streamSimple: SimpleStream,
    model: PiAi.Model<PiAi.Api>,
    context: PiAi.Context,
    options: PiAi.SimpleStreamOptions,
    gate: ReadGate,
  ): PiAi.AssistantMessageEventStream {
    if (!GATED_APIS.has(model.api)) return streamSimple(model, context, options);
    const registration = registerReadGate(gate);
    const source = streamSimple(model, context, { ...options, headers: { ...options.headers, [READ_GATE_HEADER]: registration.header } });
    void source.result().finally(registration.release);
    return source;
  }

  classifyError(message: PiAi.AssistantMessage, model: ResolvedModel): ProviderErrorKind {
    const piAi = this.piAi.lightLoaded;
    if (!piAi) throw new Error("ModelRegistry.classifyError called before any model was resolved");
    return this.classifier.classify(piAi, message, model.model);
  }

  clampThinking(model: ResolvedModel | undefined, level: ThinkingLevel): ThinkingLevel {
    return model ? clampThinkingLevel(model.supportedThinkingLevels, level) : "off";
  }

  private resolved(piAi: PiAiLight, entry: CatalogEntry): ResolvedModel {
    return {
      descriptor: { ...entry.descriptor, input: [...entry.descriptor.input] },
      supportedThinkingLevels: piAi.getSupportedThinkingLevels(entry.model),
      model: entry.model,
    };
  }

  private load(): Promise<LoadedCatalog> {
    this.loading ??= this.loadNow().catch(
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  /**
   * Reads auth.json and models.json (not pi-ai), so that every configured secret is known to
   * `credentials.redact` from startup on, before an extension or a dependency could print one.
   */
  async loadCredentials(): Promise<void> {
    await Promise.all([this.credentials.load(), this.userProviders()]);
  }

  private userProviders(): Promise<UserProviderConfig[]> {
    this.providers ??= this.readUserProviders().then((providers) => {
      for (const provider of providers) this.defineCredentials(provider);
      return providers;
    });
    return this.providers;
  }

  private async loadNow(): Promise<LoadedCatalog> {
    // Not pi-ai's providers nor typebox: a prompt to a provider (or its warm-up) loads those.
    const [piAi, userProviders] = await Promise.all([this.piAi.light(), this.userProviders()]);
    const faux = new FauxModels(piAi, this.script);
    return { piAi, faux, catalog: new ModelCatalog(piAi, faux, userProviders) };
  }

  private async readUserProviders(): Promise<UserProviderConfig[]> {
    const read = await readBoundedFile(this.paths.modelsFile, FILE_LIMITS.maxModelsFileBytes);
    if (read.status !== "ok") {
      if (read.status === "refused") this.warn(`models file ${this.paths.modelsFile} ${read.reason}; its providers are skipped`);
      return [];
    }
    const { providers, warnings } = new ModelsFileParser().parse(decodeText(read.bytes), `models file ${this.paths.modelsFile}`);
    for (const warning of warnings) this.warn(warning);
    return providers;
  }

  private defineCredentials(provider: UserProviderConfig): void {
    this.credentials.defineProvider(provider.name, { apiKey: provider.apiKey, apiKeyEnv: provider.apiKeyEnv, noAuth: provider.noAuth });
    // Base URLs and auth headers must not reach clients either, even inside a provider's error text.
    this.credentials.addSecret(provider.baseUrl);
    for (const [name, value] of Object.entries(provider.headers)) {
      if (!SENSITIVE_HEADER.test(name)) continue;
      this.credentials.addSecret(value);
      const bearer = /^bearer\s+(.+)$/i.exec(value);
      if (bearer) this.credentials.addSecret(bearer[1]);
    }
  }

  /**
   * A call's final message as clients may see it: credentials scrubbed from an error's text (even a
   * provider's error text may quote them), and the provider's error type, which the SDK dropped, kept
   * for the retry decision (ProviderErrorClassifier).
   */
  private scrubbed(message: PiAi.AssistantMessage, gate: ReadGate): void {
    if (message.stopReason !== "error" && message.stopReason !== "aborted") return;
    if (message.errorMessage) message.errorMessage = this.credentials.redact(message.errorMessage);
    if (gate.streamErrorType !== undefined) message.diagnostics = [...(message.diagnostics ?? []), streamErrorDiagnostic(gate.streamErrorType)];
  }

  private failedStream(piAi: PiAiLight, model: PiAi.Model<PiAi.Api>, errorMessage: string): PiAi.AssistantMessageEventStream {
    const out = piAi.createAssistantMessageEventStream();
    const message: PiAi.AssistantMessage = {
      role: "assistant",
      content: [],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "error",
      errorMessage,
      timestamp: Date.now(),
    };
    out.push({ type: "error", reason: "error", error: message });
    out.end(message);
    return out;
  }
}
