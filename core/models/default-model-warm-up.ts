import { SettingsStore } from "../config/settings-store.js";
import type { ZiPaths } from "../config/zi-paths.js";
import { FAUX_PROVIDER } from "./faux-models.js";
import { ModelRegistry } from "./model-registry.js";
import { PiAiLoader } from "./pi-ai-loader.js";

const quiet = (): void => undefined;

/**
 * Warms the provider path of settings.json's `defaultModel` (ProviderWarmer, through resolving it)
 * for a front end whose sessions come later (ACP: the editor initializes first, then opens a
 * session and prompts at once). Reads the same files the sessions will read, silently: the sessions
 * report what is wrong with them. Never rejects.
 */
export async function warmDefaultModel(paths: ZiPaths, env: NodeJS.ProcessEnv): Promise<void> {
  try {
    const settings = new SettingsStore(paths, quiet);
    const piAi = new PiAiLoader();
    const registry = new ModelRegistry({ paths, env, warn: quiet, piAi });
    await Promise.all([settings.load(), registry.loadCredentials()]);
    const model = settings.getDefaultModel();
    if (!model) return;
    // pi-ai's index is the warm-up's largest module: read and compiled from here on, beside the
    // session's own modules, not after them (resolving the model loads only the catalogue).
    if (model.provider !== FAUX_PROVIDER) void piAi.load().catch(() => undefined);
    await registry.resolve(model.provider, model.id);
  } catch {
    // nothing to warm: the session reports it when it resolves the model itself
  }
}
