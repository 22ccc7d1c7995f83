// In-thread module hooks of the dev runner (scripts/ts-node-esm.mjs), where Node has module.registerHooks:
// TypeScript compiled by ts-node's compiler (not its ESM loader), so decorator metadata is kept.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// ts-node and tsconfig.json of the project being run (the working directory), as `ts-node/esm` finds them.
const service = createRequire(join(process.cwd(), "package.json"))("ts-node").create();
const RELATIVE_JS = /^(\.{1,2}\/|\/|file:).*\.js$/;
const TYPESCRIPT = /\.[cm]?ts$/;

/**
 * `./x.js` names what TypeScript emits: from source, that is `./x.ts` where it exists and ts-node
 * compiles it (not under node_modules, where a package may ship its .ts beside its .js).
 */
export function resolve(specifier, context, nextResolve) {
  if (RELATIVE_JS.test(specifier) && context.parentURL?.startsWith("file:")) {
    const source = fileURLToPath(new URL(`${specifier.slice(0, -".js".length)}.ts`, context.parentURL));
    if (!service.ignored(source) && existsSync(source)) return nextResolve(pathToFileURL(source).href, context);
  }
  return nextResolve(specifier, context);
}

export function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !TYPESCRIPT.test(new URL(url).pathname)) return nextLoad(url, context);
  const file = fileURLToPath(url);
  if (service.ignored(file)) return nextLoad(url, context);
  return { format: formatOf(file), source: service.compile(readFileSync(file, "utf8"), file), shortCircuit: true };
}

/** What ts-node emits for the file under `module: NodeNext`: ESM for .mts and in a `"type": "module"` package. */
function formatOf(file) {
  if (file.endsWith(".mts")) return "module";
  if (file.endsWith(".cts")) return "commonjs";
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        return JSON.parse(readFileSync(manifest, "utf8")).type === "module" ? "module" : "commonjs";
      } catch {
        return "commonjs";
      }
    }
    if (dirname(dir) === dir) return "commonjs";
  }
}
