// What the probes (bench/acp-probe.mjs, bench/prompt-probe.mjs) share: their command line,
// `[--node PATH] [--zi dist/bin/zi.js] [--runs N] [a probe's own options] [-- node args]`, and the
// monotonic clock their PROBE_MONO lines print.
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";

export function probeOptions(argv = process.argv.slice(2)) {
  const dash = argv.indexOf("--");
  /** The value after `name`, or `fallback`; nothing after `--` is a probe's option. */
  const option = (name, fallback) => {
    const i = argv.indexOf(name);
    return i === -1 || (dash !== -1 && i > dash) ? fallback : argv[i + 1];
  };
  return {
    option,
    node: option("--node", process.execPath),
    zi: resolve(option("--zi", "dist/bin/zi.js")),
    runs: Number(option("--runs", "1")),
    nodeArgs: dash === -1 ? [] : argv.slice(dash + 1),
  };
}

/** `at` (performance.now()) on the monotonic clock, in µs, as --cpu-prof profiles stamp their samples. */
export const monotonicUs = (at) => (Number(process.hrtime.bigint() / 1000n) - (performance.now() - at) * 1000).toFixed(0);
