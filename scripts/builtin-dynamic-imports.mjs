// An esbuild plugin for `npm run build` (scripts/bundle.mjs): pi-ai reads a few of Node's built-ins with
// `import()` of a computed specifier (`const dynamicImport = (specifier) => import(specifier)`, kept
// out of static imports for browser builds), at load. An ES module import of a built-in makes Node
// build its module facade, which reads every export: for node:fs that runs its lazy getters, which load
// fs streams, node:fs/promises and readline's interface (~2-3 ms of CPU on Node 26 before the answer to
// a first `model.select`, which loads env-api-keys.js with the catalogue; docs/performance.md). The
// code uses only functions of the exports (`existsSync`, `homedir`, `join`, `platform`, ...), which
// the CommonJS exports object holds as well, so the built `zi` takes them from
// `process.getBuiltinModule`, still through a promise. The build fails when such a file no longer has
// that line, or calls `dynamicImport` with anything but a `"node:" + "name"` constant it declares.
import { readFile } from "node:fs/promises";

const PI_AI_FILE = /[\\/]node_modules[\\/]@mariozechner[\\/]pi-ai[\\/]dist[\\/].*\.js$/;
const DYNAMIC_IMPORT = "const dynamicImport = (specifier) => import(specifier);";
const BY_GETTER = "const dynamicImport = (specifier) => Promise.resolve(process.getBuiltinModule(specifier));";
const CALL = /\bdynamicImport\(([^)]*)\)/g;
const BUILTIN_CONSTANT = (name) => new RegExp(`^const ${name} = "node:" \\+ "[a-z_/]+";$`, "m");

/** The file with its built-ins read by `process.getBuiltinModule`; throws unless every call reads a built-in. */
export function builtinDynamicImports(source, path) {
  const at = source.indexOf(DYNAMIC_IMPORT);
  if (at === -1 || source.indexOf(DYNAMIC_IMPORT, at + 1) !== -1) throw new Error(`builtin-dynamic-imports: ${path} no longer declares dynamicImport once; update scripts/builtin-dynamic-imports.mjs`);
  const calls = [...source.matchAll(CALL)].map((match) => match[1]);
  if (calls.length === 0) throw new Error(`builtin-dynamic-imports: ${path} never calls dynamicImport; update scripts/builtin-dynamic-imports.mjs`);
  for (const argument of calls) {
    if (!/^NODE_[A-Z_]+_SPECIFIER$/.test(argument) || !BUILTIN_CONSTANT(argument).test(source)) {
      throw new Error(`builtin-dynamic-imports: ${path} imports ${argument}, which is not a "node:" constant; update scripts/builtin-dynamic-imports.mjs`);
    }
  }
  return source.slice(0, at) + BY_GETTER + source.slice(at + DYNAMIC_IMPORT.length);
}

export const builtinDynamicImportsPlugin = {
  name: "builtin-dynamic-imports",
  setup(build) {
    const patched = new Set();
    build.onLoad({ filter: PI_AI_FILE }, async ({ path }) => {
      const source = await readFile(path, "utf8");
      if (!source.includes("dynamicImport")) return undefined;
      patched.add(path.replace(/.*[\\/]pi-ai[\\/]dist[\\/]/, ""));
      return { contents: builtinDynamicImports(source, path), loader: "js" };
    });
    // The catalogue's env-api-keys.js is the one a first `model.select` loads: fail, not ship it unpatched.
    build.onEnd(() => {
      if (!patched.has("env-api-keys.js")) throw new Error("builtin-dynamic-imports: pi-ai's env-api-keys.js was not patched; update scripts/builtin-dynamic-imports.mjs");
    });
  },
};
