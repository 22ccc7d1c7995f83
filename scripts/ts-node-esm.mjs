// Dev runner hook: `node --import ./scripts/ts-node-esm.mjs bin/zi.ts`.
// tsx/esbuild drop decorator metadata (tsyringe injection breaks), so ts-node's ESM loader is registered here.
import { register } from "node:module";
import { pathToFileURL } from "node:url";

process.env.TS_NODE_TRANSPILE_ONLY ??= "1"; // type checking is `npm run typecheck`'s job
register("ts-node/esm", pathToFileURL("./"));
// Registered last, so it resolves first: `zi/*` from source when the source is here.
register("./zi-source-exports.mjs", import.meta.url);
