// An esbuild plugin for `npm run build` (scripts/bundle.mjs): in the built `zi`, core/models/pi-ai-light.js
// takes each name it re-exports from pi-ai's index from the pi-ai module that declares it (models.js,
// env-api-keys.js, ...), so that `model.select` loads pi-ai's catalogue without the rest of its index:
// its providers' registration and its tool-argument validation, which imports typebox's compiler
// (docs/performance.md). They are the very modules the index re-exports, bundled once, so the
// functions and their modules' state are the index's own (test/e2e/model-catalogue.e2e.spec.ts
// compares the built zi's `model.list` and `model.select` answers with pi-ai's index).
// The build fails when a name is declared by no module the index re-exports, or by more than one, or
// when such a module (or one it imports) imports anything but pi-ai's own files.
// pi-ai's catalogue (models.generated.js, `MODELS`, one object literal of ~330 KB) becomes each
// provider's JSON text, and the registry models.js builds from it at load parses a provider's text on
// its first lookup (`getModels`, `getModel`; `getProviders` needs none): a first `model.select` parses
// one provider's models, not 969 (docs/performance.md), and V8 parses JSON faster than a JavaScript
// literal. The build fails unless each text parses back to the same data with its keys in the same
// order, and when models.js no longer begins with the loop it replaces.
// The texts (~290 KB) are not in the catalogue's chunk: `scripts/bundle.mjs` writes them beside it as
// `pi-ai-models.jsonl`, a provider's JSON text per line, read once, synchronously, by the first lookup
// of one of pi-ai's providers. A faux or models.json `model.select` never reads it; in the chunk, the
// texts cost every first `model.select` their reading, decoding and deserializing from the compile
// cache (Node 26: 5-13 million instructions of ~220; Node 20, without a compile cache, their parsing;
// docs/performance.md).
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";

const LIGHT = /[\\/]dist[\\/]core[\\/]models[\\/]pi-ai-light\.js$/;
const PI_AI = "@mariozechner/pi-ai";
const REEXPORT = /^export \{([^}]*)\} from "@mariozechner\/pi-ai";$/m;
const DECLARATION = /^export (?:async )?(?:function\*?|const|let|class) ([\w$]+)/gm;
const STAR = /^export \* from "([^"]+)";$/gm;
const IMPORT = /^(?:import|export)\b[^;"]*?(?:from )?"([^"]+)";$/gm;

/** Every file `file` imports statically, itself included; throws on an import of anything but a relative file. */
function ownClosure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, specifier] of readFileSync(file, "utf8").matchAll(IMPORT)) {
    if (!specifier.startsWith(".")) throw new Error(`pi-ai-light: ${file} imports ${specifier}, which model.select must not load`);
    ownClosure(resolve(dirname(file), specifier), seen);
  }
  return seen;
}

/** name → the file of pi-ai's index's `export *` modules that declares it. */
function declarations(index) {
  const declaring = new Map();
  for (const [, specifier] of readFileSync(index, "utf8").matchAll(STAR)) {
    const file = resolve(dirname(index), specifier);
    for (const [, name] of readFileSync(file, "utf8").matchAll(DECLARATION)) {
      if (declaring.has(name)) throw new Error(`pi-ai-light: ${name} is declared by ${declaring.get(name)} and ${file}`);
      declaring.set(name, file);
    }
  }
  return declaring;
}

const GENERATED = /[\\/]@mariozechner[\\/]pi-ai[\\/]dist[\\/]models\.generated\.js$/;
const REGISTRY = /[\\/]@mariozechner[\\/]pi-ai[\\/]dist[\\/]models\.js$/;
// pi-ai's models.js (0.73.1) up to its first function: the registry it builds from MODELS at load.
const EAGER_REGISTRY = `import { MODELS } from "./models.generated.js";
const modelRegistry = new Map();
// Initialize registry from MODELS on module load
for (const [provider, models] of Object.entries(MODELS)) {
    const providerModels = new Map();
    for (const [id, model] of Object.entries(models)) {
        providerModels.set(id, model);
    }
    modelRegistry.set(provider, providerModels);
}
`;
// The same registry, a provider's models parsed from their JSON text on its first lookup: the Map of
// id → model that the loop above builds, in the same order (JSON.parse's, which is the literal's).
const LAZY_REGISTRY = `import { PROVIDERS, providerJson } from "./models.generated.js";
const modelRegistry = new (class extends Map {
    get(provider) {
        let models = super.get(provider);
        if (models === null) super.set(provider, (models = new Map(Object.entries(JSON.parse(providerJson(provider))))));
        return models;
    }
})(PROVIDERS.map((provider) => [provider, null]));
`;

/** The file beside the catalogue's chunk that holds the texts, a provider's per line, in PROVIDERS' order. */
export const PROVIDER_TEXTS_FILE = "pi-ai-models.jsonl";
let providerTexts;

/** The contents of PROVIDER_TEXTS_FILE, once the build has converted models.generated.js. */
export function piAiProviderTexts() {
  if (providerTexts === undefined) throw new Error("pi-ai-light: models.generated.js was not bundled; update scripts/pi-ai-light.mjs");
  return providerTexts;
}

/**
 * models.generated.js as the names of its providers and a reader of each one's JSON text (a line of
 * PROVIDER_TEXTS_FILE, sliced at the offsets the build recorded); the build fails unless each text
 * parses back to the same data, keys in the same order.
 */
async function providerJson(path) {
  const { MODELS } = await import(pathToFileURL(path).href);
  const lines = [];
  const spans = [];
  let at = 0;
  for (const [provider, models] of Object.entries(MODELS)) {
    const json = JSON.stringify(models);
    const back = JSON.parse(json);
    if (!isDeepStrictEqual(back, models) || JSON.stringify(back) !== json) throw new Error(`pi-ai-light: ${path}'s ${provider} models are not plain JSON data`);
    lines.push(json);
    spans.push(`${JSON.stringify(provider)}: [${at}, ${at + json.length}]`);
    at += json.length + 1;
  }
  providerTexts = `${lines.join("\n")}\n`;
  return `import { readFileSync } from "node:fs";
const SPANS = {\n${spans.join(",\n")}\n};
export const PROVIDERS = Object.keys(SPANS);
let texts;
export function providerJson(provider) {
    texts ??= readFileSync(new URL(${JSON.stringify(`./${PROVIDER_TEXTS_FILE}`)}, import.meta.url), "utf8");
    const [start, end] = SPANS[provider];
    return texts.slice(start, end);
}
`;
}

export const piAiLightPlugin = {
  name: "pi-ai-light",
  setup(build) {
    build.onLoad({ filter: GENERATED }, async (args) => ({ contents: await providerJson(args.path), loader: "js" }));
    build.onLoad({ filter: REGISTRY }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!source.startsWith(EAGER_REGISTRY)) throw new Error(`pi-ai-light: ${args.path} no longer starts with the registry it builds from MODELS; update scripts/pi-ai-light.mjs`);
      const rest = source.slice(EAGER_REGISTRY.length);
      // The lazy registry answers `get` and `keys` only: any other use would meet a provider not parsed yet.
      const uses = [...rest.matchAll(/modelRegistry\b(\.\w+)?/g)].map((use) => use[1]);
      if (uses.some((use) => use !== ".get" && use !== ".keys")) throw new Error(`pi-ai-light: ${args.path} uses its registry beyond get and keys; update scripts/pi-ai-light.mjs`);
      return { contents: LAZY_REGISTRY + rest, loader: "js" };
    });
    build.onLoad({ filter: LIGHT }, async (args) => {
      const source = readFileSync(args.path, "utf8");
      const match = REEXPORT.exec(source);
      if (!match) throw new Error(`pi-ai-light: ${args.path} no longer re-exports names from ${PI_AI}`);
      const index = await build.resolve(PI_AI, { kind: "import-statement", resolveDir: dirname(args.path) });
      if (index.errors.length > 0) throw new Error(`pi-ai-light: ${PI_AI} does not resolve`);
      const declaring = declarations(index.path);
      const byFile = new Map();
      for (const name of match[1].split(",").map((part) => part.trim()).filter(Boolean)) {
        const file = declaring.get(name);
        if (!file) throw new Error(`pi-ai-light: no module pi-ai's index re-exports declares ${name}`);
        ownClosure(file);
        byFile.set(file, [...(byFile.get(file) ?? []), name]);
      }
      const lines = [...byFile].map(([file, names]) => `export { ${names.join(", ")} } from ${JSON.stringify(file)};`);
      return { contents: source.replace(REEXPORT, lines.join("\n")), loader: "js" };
    });
  },
};
