// Resolve hook of the dev runner (scripts/ts-node-esm.mjs): run from the repository, `zi/testing` and
// `zi/family` resolve to their TypeScript source rather than to dist/, so a family compiled from source
// and the kernel that serves it in process are one copy (two copies disagree on every class and marker).
// `zi/client` keeps the build: it spawns the built `zi`. Where the source is absent (a checkout of the
// build only), the package's exports apply as written.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

// The project being run (the working directory), not this file's checkout: a scratch copy whose core/
// is the build must keep resolving to the build.
const root = pathToFileURL(`${process.cwd()}/`);
let pkg = {};
try {
  pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
} catch {
  // no package here: nothing to resolve from source
}

const IN_PROCESS = new Set(["testing", "family"]);

// Not async: the same hook serves module.register (async chain) and module.registerHooks (synchronous).
export function resolve(specifier, context, nextResolve) {
  if (typeof pkg.name === "string" && IN_PROCESS.has(specifier.slice(pkg.name.length + 1)) && specifier.startsWith(`${pkg.name}/`)) {
    const entry = pkg.exports?.[`.${specifier.slice(pkg.name.length)}`];
    const built = typeof entry === "string" ? entry : entry?.default;
    if (typeof built === "string" && built.startsWith("./dist/") && built.endsWith(".js")) {
      const source = new URL(built.slice("./dist/".length).replace(/\.js$/, ".ts"), root);
      if (existsSync(fileURLToPath(source))) return { url: pathToFileURL(realpathSync(fileURLToPath(source))).href, shortCircuit: true };
    }
  }
  return nextResolve(specifier, context);
}
