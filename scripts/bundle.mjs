// `npm run build`, second step: bundles tsc's output for the `zi` command (dist/bin/zi-cli.js and all it
// imports, node_modules included) into dist/bin/zi-cli.js plus lazily loaded chunks in
// dist/bin/chunks/. Loading ~1,300 small modules one by one was most of the time to a first response
// (docs/performance.md). It bundles tsc's JavaScript, not the TypeScript sources, so the decorator
// metadata tsc emitted (tsyringe injects by it) is kept as it is. Every dynamic import stays a chunk
// of its own, so what `ready` and the first response need still loads first and alone.
//
// Two passes. esbuild bundles (CommonJS packages, tree shaking, minifying) with one chunk per set of
// dynamic imports that shares a module: ~25 small chunks that the entry imports statically, each
// resolved, read, compiled and linked on its own at every start. Rollup then regroups esbuild's output
// files (not the sources: nothing is transformed again) so that a start loads a few files: see
// `groups` below.
import { build } from "esbuild";
import { rollup } from "rollup";
import { rmSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { lazyZodSchemasPlugin } from "./lazy-zod-schemas.mjs";
import { linearSseChunksPlugin } from "./linear-sse-chunks.mjs";
import { PROVIDER_TEXTS_FILE, piAiLightPlugin, piAiProviderTexts } from "./pi-ai-light.mjs";
import { builtinDynamicImportsPlugin } from "./builtin-dynamic-imports.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const nodeRequire = createRequire(import.meta.url);
const ENTRY = "dist/bin/zi-cli.js";

// Left to node_modules: the provider SDKs pi-ai loads only when a real provider streams, and jiti,
// which loads only for extension files and reads its own files at run time. Not the `openai` SDK: the
// OpenAI APIs (chat completions, Responses) are what most providers and local servers speak, and its
// 115 modules loaded one by one were most of a first prompt's wait (docs/performance.md); bundled, it
// is one more lazily loaded chunk, read only when such a provider is resolved.
const EXTERNAL = ["jiti", "@anthropic-ai/sdk", "@google/genai", "@mistralai/mistralai", "@aws-sdk/*", "@smithy/*", "proxy-agent", "undici"];

// CommonJS packages that esbuild bundles call require() for Node's built-ins (through its `__require`
// shim); a file that names `require` gets one, made at its top. Not every file: with esbuild's banner
// in all of them, rollup kept ~40 createRequire calls before a first response, each building a
// CommonJS module object, and none used. A file that names `require` elsewhere (a string) gets one too.
const REQUIRE_PRELUDE = 'const require=process.getBuiltinModule("node:module").createRequire(import.meta.url);';
const usesRequire = (code) => /(?<![\w$.])require(?![\w$])/.test(code);

// Node's built-ins are read with process.getBuiltinModule, not imported: an ES module import of a
// built-in makes Node build a module facade of all its exports (and keep it in sync), ~2 ms of CPU
// for node:util and ~1-4 ms for node:crypto on Node 26 before a first response (docs/performance.md),
// where the CommonJS exports object is all the code uses. esbuild leaves each module's imports of
// externals where the module begins; each `import{a as b}from"node:x"` becomes
// `const{a:b}=process.getBuiltinModule("node:x")` there, before the module's own code, as the modules
// it imports come before it. Not child_process: the stdout guard patches its exports and re-syncs the
// ES module facades (core/kernel/stdout-guard.ts), and a module that took its functions out before the
// patch would keep the unpatched ones. A named import the built-in does not have fails the build, as
// it would fail to link.
// node:crypto's, node:os's and node:fs/promises' functions are looked up on their first call instead:
// crypto is ~20 of Node's modules (~3-6 ms of CPU on Node 26), fs/promises ~1.5 ms on Node 26 (it is
// not in its startup snapshot and brings readline's interface), and nothing a first response runs
// calls any of them (core/journal/random-uuid.ts; os only where HOME is unset; the files read before
// it go through node:fs's callbacks, core/config/bounded-file-reader.ts).
const ESM_BUILTINS = new Set(["node:child_process"]);
const LAZY_BUILTINS = new Set(["node:crypto", "node:os", "node:fs/promises"]);
function builtinBinding(node) {
  const specifier = node.source.value;
  if (!specifier.startsWith("node:") || ESM_BUILTINS.has(specifier) || node.specifiers.length === 0) return undefined;
  const exports = nodeRequire(specifier);
  const fields = [];
  const bindings = [];
  for (const part of node.specifiers) {
    if (part.type === "ImportNamespaceSpecifier") return undefined;
    const name = part.type === "ImportDefaultSpecifier" ? "default" : part.imported.name;
    if (name === "default") bindings.push(`${part.local.name}=process.getBuiltinModule("${specifier}")`);
    else if (!(name in exports)) throw new Error(`bundle: ${specifier} has no export ${name}`);
    else if (LAZY_BUILTINS.has(specifier)) {
      // A class (KeyObject, X509Certificate) would lose `new` and `instanceof` behind an arrow function.
      if (typeof exports[name] !== "function" || /^[A-Z]/.test(name)) throw new Error(`bundle: ${specifier}'s ${name} is no plain function, so it cannot be looked up on its first call`);
      bindings.push(`${part.local.name}=(...args)=>process.getBuiltinModule("${specifier}").${name}(...args)`);
    } else fields.push(name === part.local.name ? name : `${name}:${part.local.name}`);
  }
  if (fields.length > 0) bindings.push(`{${fields.join(",")}}=process.getBuiltinModule("${specifier}")`);
  return `const ${bindings.join(",")};`;
}
function builtinsByGetter(code, ast) {
  let out = "";
  let at = 0;
  for (const node of ast.body) {
    const binding = node.type === "ImportDeclaration" ? builtinBinding(node) : undefined;
    if (binding === undefined) continue;
    out += code.slice(at, node.start) + binding;
    at = node.end;
  }
  return out + code.slice(at);
}

const result = await build({
  absWorkingDir: root,
  entryPoints: [ENTRY],
  outdir: "dist/bin",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  write: false,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  // The ES module builds of class-validator, class-transformer and tsyringe, so that what Zi does not
  // use (most of validator.js, libphonenumber's metadata) is left out instead of parsed at startup.
  mainFields: ["es2015", "module", "main"],
  // Less to parse on every start; identifiers stay, so stack traces on stderr still read.
  minifyWhitespace: true,
  minifySyntax: true,
  // No keepNames: it wraps every named closure in a defineProperty call at run time, on the request
  // path too (measured: ~5% of a get_state round trip). Names survive anyway, identifiers are not
  // minified; only a class whose name another bundled module also uses gets a numeric suffix.
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
  // The ACP SDK's generated zod schemas are built on first use, not at load (scripts/lazy-zod-schemas.mjs).
  // The openai SDK's SSE reader cuts events without copying its buffer once per event (scripts/linear-sse-chunks.mjs).
  // model.select loads pi-ai's catalogue without typebox and the providers (scripts/pi-ai-light.mjs).
  // pi-ai's `import()`s of Node's built-ins read them without a module facade (scripts/builtin-dynamic-imports.mjs).
  plugins: [lazyZodSchemasPlugin, linearSseChunksPlugin, piAiLightPlugin, builtinDynamicImportsPlugin],
});

const files = new Map(result.outputFiles.map((file) => [file.path, file.text]));
const outputs = result.metafile.outputs;
const abs = (path) => `${root}${path}`;
const staticImports = (path) => outputs[path].imports.filter((i) => i.kind === "import-statement" && !i.external).map((i) => i.path);
const dynamicImports = (path) => outputs[path].imports.filter((i) => i.kind === "dynamic-import" && !i.external).map((i) => i.path);
const closure = (roots) => {
  const seen = new Set();
  for (const queue = [...roots]; queue.length > 0; ) {
    const path = queue.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    queue.push(...staticImports(path));
  }
  return seen;
};

// What rollup puts together:
// - `core`: every file the entry imports statically. All of them load at every start anyway, before
//   `ready`, in the same order.
// - `session`: every file the first response loads after `ready` (RPC mode's dynamic imports of the
//   built-in plugins' modules, the families, the DI wiring: bin/zi-cli.ts, core/boot/rpc-application.ts)
//   but the Reflect polyfill's. A mode that loads one of them now loads all of them, none run more than
//   module bodies (class declarations, decorators): they are the pi-rpc, interactive, ACP and schema
//   modes, which load the families anyway, and the plugins' activation, which comes after them.
// - `polyfill`: `reflect-metadata`, a file of its own that `session` imports statically: it is awaited
//   before any of them loads (bin/zi-cli.ts), and so runs before tsyringe whatever the grouping.
// - `catalogue`: the part of pi-ai the first `model.select` loads (core/models/pi-ai-light.ts: the
//   model catalogue, event streams, the faux messages; scripts/pi-ai-light.mjs), its providers' models
//   as JSON text in `pi-ai-models.jsonl` beside it, read at the first lookup of one of them.
// - `models`: the rest of pi-ai (its index, its providers' registration, its schema library, typebox),
//   which a provider's first call or warm-up loads (core/models/pi-ai-loader.ts); only pi-ai's own
//   providers share its files, and they load after it.
// - `state`, `methods`, `model`, `prompt` and `params`: the method classes, imported on their first request (below).
// Everything else keeps esbuild's chunks.
const SESSION_ENTRIES = ["dist/plugins/builtin-plugins.js", "dist/methods/builtin-families.js", "dist/core/extensions/plugin-composition.js", "dist/core/boot/method-wiring.js"];
const POLYFILL_ENTRY = "node_modules/reflect-metadata/Reflect.js";
const CATALOGUE_ENTRY = "dist/core/models/pi-ai-light.js";
const MODELS_ENTRY = "node_modules/@mariozechner/pi-ai/dist/index.js";
// An entry point in node_modules is named from wherever node_modules really is (a worktree whose
// node_modules links to another checkout's gives `../../main/node_modules/...`): named from node_modules.
const entryName = (entryPoint) => entryPoint.replace(/^(?:\.\.\/)+(?:[^/]+\/)*?node_modules\//, "node_modules/");
const dynamicEntries = new Map(Object.keys(outputs).flatMap(dynamicImports).map((path) => [entryName(outputs[path].entryPoint), path]));
const dynamicEntry = (entryPoint) => {
  const path = dynamicEntries.get(entryPoint);
  if (!path) throw new Error(`bundle: ${entryPoint} is no longer a dynamic import; update scripts/bundle.mjs`);
  return path;
};
const core = closure([ENTRY]);
const polyfill = closure([dynamicEntry(POLYFILL_ENTRY)]);
const session = [...closure(SESSION_ENTRIES.map(dynamicEntry))].filter((path) => !core.has(path) && !polyfill.has(path));
const earlier = (path) => core.has(path) || polyfill.has(path) || session.includes(path);
const catalogue = [...closure([dynamicEntry(CATALOGUE_ENTRY)])].filter((path) => !earlier(path));
const models = [...closure([dynamicEntry(MODELS_ENTRY)])].filter((path) => !earlier(path) && !catalogue.includes(path));
// The method classes, each a dynamic import of its family's table (core/kernel/lazy-method.ts), in a
// few files rather than one each: `methods`, the classes whose requests carry no params (session.get_state,
// the lists), and `params`, those with their params DTOs (class-validator's decorators run as they
// load). A first get_state loads the small one; the check after the first response, and a front end
// wiring in process, load both. Sixty files loaded one by one cost ~35 ms of CPU more than the same code
// in the one session chunk (`zi schema`, which loads them all, docs/performance.md). The `model`
// family's classes with DTOs are a third file, `model`: `model.select` is a client's first real act,
// and with every DTO loaded before its answer it cost ~30 ms of CPU more on Node 20. `session.get_state`,
// a client's usual first request, is a fourth, `state`: the ten other params-less classes' bodies
// (their decorators, their result schemas) ran before its answer, ~8 million instructions of ~200 on
// Node 26 (docs/performance.md). `session.prompt` and `session.await_idle`, a client's first prompt, are
// a fifth, `prompt`: a first prompt's first delta waited for every other DTO's decorators in `params`
// (on Node 26 the largest part of what runs between a first `model.select` and the plugins'
// activation); the check after the startup loads `params`.
const METHOD_CLASS = /^dist\/(?:methods|plugins)\/.*\.method\.js$/;
const PARAMS_DTO = /\.params\.js$/;
const grouped0 = new Set([...core, ...polyfill, ...session, ...catalogue, ...models]);
const MODEL_FAMILY = /^dist\/methods\/model\//;
const STATE_METHOD = "dist/methods/session/get-state.method.js";
const PROMPT_METHODS = new Set(["dist/methods/session/prompt.method.js", "dist/methods/session/await-idle.method.js"]);
const methodGroups = { state: new Set(), methods: new Set(), model: new Set(), prompt: new Set(), params: new Set() };
// A file that a module other than a method class also imports (the permission rules, which the
// permissions plugin's controller shares with its DTOs) keeps its own chunk: in a method group, loading
// that module loaded the whole group (the controller, at the plugins' activation, loaded `params` and
// `methods` before a first prompt's delta).
const elsewhere = closure([...dynamicEntries].flatMap(([entryPoint, path]) => (METHOD_CLASS.test(entryPoint) || grouped0.has(path) ? [] : [path])));
for (const [entryPoint, path] of dynamicEntries) {
  if (!METHOD_CLASS.test(entryPoint)) continue;
  const files = [...closure([path])].filter((file) => !grouped0.has(file) && !elsewhere.has(file));
  const takesParams = files.some((file) => Object.keys(outputs[file].inputs).some((input) => PARAMS_DTO.test(input)));
  for (const file of files) methodGroups[entryPoint === STATE_METHOD ? "state" : !takesParams ? "methods" : MODEL_FAMILY.test(entryPoint) ? "model" : PROMPT_METHODS.has(entryPoint) ? "prompt" : "params"].add(file);
}
// A file is in the first group that needs it, in the groups' order above.
const order = Object.keys(methodGroups);
order.forEach((name, i) => {
  for (const file of methodGroups[name]) for (const later of order.slice(i + 1)) methodGroups[later].delete(file);
});
if (Object.values(methodGroups).some((files) => files.size === 0)) throw new Error(`bundle: a method group (${order.join(", ")}) holds no class; update scripts/bundle.mjs`);
core.delete(ENTRY);
const grouped = { core: [...core], polyfill: [...polyfill].filter((path) => !core.has(path)), session, catalogue, models, ...Object.fromEntries(order.map((name) => [name, [...methodGroups[name]]])) };
const GROUPS = Object.keys(grouped);
const group = new Map(Object.entries(grouped).flatMap(([name, paths]) => paths.map((path) => [abs(path), name])));

rmSync(`${root}dist/bin/chunks`, { recursive: true, force: true });
const rolled = await rollup({
  input: abs(ENTRY),
  // esbuild has already tree-shaken; rollup only regroups, and must keep every statement.
  treeshake: false,
  plugins: [
    {
      name: "esbuild-output",
      resolveId(source, importer) {
        if (importer === undefined) return source;
        if (!source.startsWith(".")) return { id: source, external: true };
        const path = fileURLToPath(new URL(source, `file://${importer}`));
        if (!files.has(path)) throw new Error(`bundle: ${importer} imports ${source}, which esbuild did not write`);
        return path;
      },
      load(id) {
        const text = files.get(id);
        const code = builtinsByGetter(text, this.parse(text));
        return usesRequire(code) ? REQUIRE_PRELUDE + code : code;
      },
    },
  ],
  onwarn(warning) {
    throw new Error(`bundle: rollup: ${warning.message}`);
  },
});
const { output } = await rolled.write({
  dir: `${root}dist/bin`,
  format: "es",
  entryFileNames: "zi-cli.js",
  // esbuild's names carry their content hash already.
  chunkFileNames: (chunk) => (GROUPS.includes(chunk.name) ? "chunks/[name]-[hash].js" : "chunks/[name].js"),
  // Every other file stays a chunk of its own: a manual chunk would otherwise take in the files it
  // imports, and code would run when a chunk that merely shares it loads.
  manualChunks: (id) => group.get(id) ?? basename(id, ".js"),
  hoistTransitiveImports: false,
});
// pi-ai's catalogue texts, beside the chunk that reads them (scripts/pi-ai-light.mjs).
const readers = output.filter((file) => file.type === "chunk" && file.code.includes(`"./${PROVIDER_TEXTS_FILE}"`));
if (readers.length !== 1 || !readers[0].fileName.startsWith("chunks/")) throw new Error(`bundle: ${PROVIDER_TEXTS_FILE} must be read by one chunk in dist/bin/chunks; update scripts/bundle.mjs`);
writeFileSync(`${root}dist/bin/chunks/${PROVIDER_TEXTS_FILE}`, piAiProviderTexts());
const total = output.reduce((sum, file) => sum + (file.type === "chunk" ? Buffer.byteLength(file.code) : 0), 0);
const first = output.find((file) => file.type === "chunk" && file.isEntry);
process.stderr.write(`bundle: ${output.length} files, ${(total / 1024 / 1024).toFixed(1)} MiB in dist/bin; the entry imports ${first.imports.filter((name) => !name.startsWith("node:") && name.startsWith("chunks/")).length} of them\n`);
