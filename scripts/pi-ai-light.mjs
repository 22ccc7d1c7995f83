// An esbuild plugin for `npm run build` (scripts/bundle.mjs): in the built `zi`, core/models/pi-ai-light.js
// takes each name it re-exports from pi-ai's index from the pi-ai module that declares it (models.js,
// env-api-keys.js, ...), so that `model.select` loads pi-ai's catalogue without the rest of its index:
// its providers' registration and its tool-argument validation, which imports typebox's compiler
// (docs/performance.md). They are the very modules the index re-exports, bundled once, so the
// functions and their modules' state are the index's own (test/e2e/model-catalogue.e2e.spec.ts
// compares the built zi's `model.list` and `model.select` answers with pi-ai's index).
// The build fails when a name is declared by no module the index re-exports, or by more than one, or
// when such a module (or one it imports) imports anything but pi-ai's own files.
// pi-ai's catalogue (models.generated.js, `MODELS`, one object literal of ~330 KB) becomes JSON.parse
// of its JSON text: V8 parses JSON faster than a JavaScript literal, and Node 20 has no compile cache
// (callgrind, Node 20, spawn to model.select answered: 30 million instructions fewer of ~845,
// docs/performance.md). The build fails unless the JSON text parses back to the same data.
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

export const piAiLightPlugin = {
  name: "pi-ai-light",
  setup(build) {
    build.onLoad({ filter: GENERATED }, async (args) => {
      const { MODELS } = await import(pathToFileURL(args.path).href);
      const json = JSON.stringify(MODELS);
      if (!isDeepStrictEqual(JSON.parse(json), MODELS)) throw new Error(`pi-ai-light: ${args.path}'s MODELS is not plain JSON data`);
      return { contents: `export const MODELS = JSON.parse(${JSON.stringify(json)});\n`, loader: "js" };
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
