#!/usr/bin/env node
// The `zi` command. It only turns on Node's compile cache, where the running Node has one (22.1 and
// later; feature-detected, Node 20 has none), and then loads the composition root: a cache enabled
// here also covers the modules the root imports, which a call inside the root could not (ES modules
// are all compiled before the first one runs). docs/performance.md has the figures.
import nodeModule from "node:module";

const compileCache = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
try {
  compileCache?.();
} catch {
  // an unwritable cache directory only costs speed
}
await import("./zi-cli.js");
