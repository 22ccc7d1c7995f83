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
import { rmSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { lazyZodSchemasPlugin } from "./lazy-zod-schemas.mjs";
import { linearSseChunksPlugin } from "./linear-sse-chunks.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const ENTRY = "dist/bin/zi-cli.js";

// Left to node_modules: the provider SDKs pi-ai loads only when a real provider streams, and jiti,
// which loads only for extension files and reads its own files at run time. Not the `openai` SDK: the
// OpenAI APIs (chat completions, Responses) are what most providers and local servers speak, and its
// 115 modules loaded one by one were most of a first prompt's wait (docs/performance.md); bundled, it
// is one more lazily loaded chunk, read only when such a provider is resolved.
const EXTERNAL = ["jiti", "@anthropic-ai/sdk", "@google/genai", "@mistralai/mistralai", "@aws-sdk/*", "@smithy/*", "proxy-agent", "undici"];

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
  // CommonJS dependencies (class-validator, tsyringe...) call require() for Node's built-ins.
  banner: { js: 'import { createRequire as __ziCreateRequire } from "node:module"; const require = __ziCreateRequire(import.meta.url);' },
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
  // The ACP SDK's generated zod schemas are built on first use, not at load (scripts/lazy-zod-schemas.mjs).
  // The openai SDK's SSE reader cuts events without copying its buffer once per event (scripts/linear-sse-chunks.mjs).
  plugins: [lazyZodSchemasPlugin, linearSseChunksPlugin],
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
// - `models`: pi-ai (the model catalogue and its schema library, typebox), which the first
//   `model.select` loads (core/models/pi-ai-loader.ts); only pi-ai's own providers share its files,
//   and they load after it.
// Everything else keeps esbuild's chunks.
const SESSION_ENTRIES = ["dist/plugins/builtin-plugins.js", "dist/methods/builtin-families.js", "dist/core/extensions/plugin-composition.js", "dist/core/boot/method-wiring.js"];
const POLYFILL_ENTRY = "node_modules/reflect-metadata/Reflect.js";
const MODELS_ENTRY = "node_modules/@mariozechner/pi-ai/dist/index.js";
const dynamicEntries = new Map(Object.keys(outputs).flatMap(dynamicImports).map((path) => [outputs[path].entryPoint, path]));
const dynamicEntry = (entryPoint) => {
  const path = dynamicEntries.get(entryPoint);
  if (!path) throw new Error(`bundle: ${entryPoint} is no longer a dynamic import; update scripts/bundle.mjs`);
  return path;
};
const core = closure([ENTRY]);
const polyfill = closure([dynamicEntry(POLYFILL_ENTRY)]);
const session = [...closure(SESSION_ENTRIES.map(dynamicEntry))].filter((path) => !core.has(path) && !polyfill.has(path));
const models = [...closure([dynamicEntry(MODELS_ENTRY)])].filter((path) => !core.has(path) && !polyfill.has(path) && !session.includes(path));
core.delete(ENTRY);
const grouped = { core: [...core], polyfill: [...polyfill].filter((path) => !core.has(path)), session, models };
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
      load: (id) => files.get(id),
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
const total = output.reduce((sum, file) => sum + (file.type === "chunk" ? Buffer.byteLength(file.code) : 0), 0);
const first = output.find((file) => file.type === "chunk" && file.isEntry);
process.stderr.write(`bundle: ${output.length} files, ${(total / 1024 / 1024).toFixed(1)} MiB in dist/bin; the entry imports ${first.imports.filter((name) => !name.startsWith("node:") && name.startsWith("chunks/")).length} of them\n`);
if (process.env.ZI_BUNDLE_META) (await import("node:fs")).writeFileSync(process.env.ZI_BUNDLE_META, JSON.stringify(result.metafile));
