// `npm run build`, second step: bundles tsc's output for the `zi` command (dist/bin/zi-cli.js and all it
// imports, node_modules included) into dist/bin/zi-cli.js plus lazily loaded chunks in
// dist/bin/chunks/. Loading ~1,300 small modules one by one was most of the time to a first response
// (docs/performance.md). It bundles tsc's JavaScript, not the TypeScript sources, so the decorator
// metadata tsc emitted (tsyringe injects by it) is kept as it is. Every dynamic import stays a chunk
// of its own, so what `ready` and the first response need still loads first and alone.
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { lazyZodSchemasPlugin } from "./lazy-zod-schemas.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

// Left to node_modules: the provider SDKs pi-ai loads only when a real provider streams, and jiti,
// which loads only for extension files and reads its own files at run time. Not the `openai` SDK: the
// OpenAI APIs (chat completions, Responses) are what most providers and local servers speak, and its
// 115 modules loaded one by one were most of a first prompt's wait (docs/performance.md); bundled, it
// is one more lazily loaded chunk, read only when such a provider is resolved.
const EXTERNAL = ["jiti", "@anthropic-ai/sdk", "@google/genai", "@mistralai/mistralai", "@aws-sdk/*", "@smithy/*", "proxy-agent", "undici"];

rmSync(`${root}dist/bin/chunks`, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: ["dist/bin/zi-cli.js"],
  outdir: "dist/bin",
  chunkNames: "chunks/[name]-[hash]",
  allowOverwrite: true,
  bundle: true,
  splitting: true,
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
  plugins: [lazyZodSchemasPlugin],
});
const outputs = Object.entries(result.metafile.outputs);
const total = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
process.stderr.write(`bundle: ${outputs.length} files, ${(total / 1024 / 1024).toFixed(1)} MiB in dist/bin\n`);
if (process.env.ZI_BUNDLE_META) (await import("node:fs")).writeFileSync(process.env.ZI_BUNDLE_META, JSON.stringify(result.metafile));
