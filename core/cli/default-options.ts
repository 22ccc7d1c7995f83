import type { ZiOptions } from "./cli-options.js";

/**
 * The options of a run nothing on the command line changed, for Zi's parser and pi's alike. Its own file
 * because cli-options.ts imports pi-rpc-options.ts: a value pi-rpc-options.ts imported back from
 * cli-options.ts would be an ESM import cycle. Only ZiOptions' type comes from there (erased at build).
 */
export function defaultZiOptions(mode: ZiOptions["mode"], env: NodeJS.ProcessEnv): ZiOptions {
  return {
    mode,
    prompt: undefined,
    model: undefined,
    noSession: false,
    sessionFile: undefined,
    extensions: [],
    fauxScript: env.ZI_FAUX_SCRIPT || undefined,
    trustProject: false,
    budget: {},
    outputSchemaFile: undefined,
  };
}
