// Dev runner hook: `node --import ./scripts/ts-node-esm.mjs bin/zi.ts`.
// tsx/esbuild drop decorator metadata (tsyringe injection breaks), so TypeScript is compiled by ts-node.
import module from "node:module";
import { pathToFileURL } from "node:url";

process.env.TS_NODE_TRANSPILE_ONLY ??= "1"; // type checking is `npm run typecheck`'s job
if (typeof module.registerHooks === "function") {
  // In-thread hooks where Node has them: module.register() is deprecated (DEP0205, warned on stderr
  // from Node 26), and ts-node's ESM loader constructs fs.Stats (DEP0180). Registered last, so it
  // resolves first: `zi/*` from source when the source is here.
  module.registerHooks(await import("./ts-node-sync-hooks.mjs"));
  module.registerHooks(await import("./zi-source-exports.mjs"));
} else {
  module.register("ts-node/esm", pathToFileURL("./"));
  // Registered last, so it resolves first: `zi/*` from source when the source is here.
  module.register("./zi-source-exports.mjs", import.meta.url);
}
