import type { PublicModel } from "../wire/session-types.js";

/** Shapes of the user-editable model files (`ZI_HOME/models.json`, the faux script), after validation. */

/** A model of a models.json provider: the public descriptor without the provider, plus its prices. */
export interface UserModelConfig extends Omit<PublicModel, "provider"> {
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

export interface UserProviderConfig {
  name: string;
  baseUrl: string;
  api: string;
  apiKey?: string;
  apiKeyEnv?: string;
  /** True with `"noAuth": true` or `"apiKey": ""`: a local server that needs no key. */
  noAuth: boolean;
  headers: Record<string, string>;
  /** pi-ai compatibility overrides (e.g. `supportsDeveloperRole: false` for Ollama); never exposed. */
  compat?: Record<string, unknown>;
  models: UserModelConfig[];
}

export interface FauxToolCallStep {
  name: string;
  arguments: Record<string, unknown>;
  id?: string;
}

/** One scripted model call of `faux/scripted`. */
export interface FauxStep {
  /** Answers only a call of a delegated child with this profile; steps without it answer the parent. */
  profile?: string;
  text?: string;
  thinking?: string;
  toolCalls?: FauxToolCallStep[];
  delayMs?: number;
  tokensPerSecond?: number;
  error?: { message: string; retryable: boolean };
}
