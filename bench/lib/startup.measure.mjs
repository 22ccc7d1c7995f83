// 1. Startup: spawn to the first (`ready`) line, Zi against the echo child, which prints its ready
// line as the first thing it does: the cost of starting Node and loading one small ES module.
import { BenchChildren } from "./bench-children.mjs";
import { cpuDetails, cpuMs, cpuRow } from "./proc-cpu.mjs";
import { median } from "./stats.mjs";

/** suffix: appended to the row's name (the second Node's row: bench/lib/second-node.mjs). */
export async function measureStartup(children, report, { reps, suffix = "" }) {
  const samples = { zi: [], baseline: [] };
  const cpu = { zi: [], baseline: [] };
  // Round 0 warms the disk cache and is discarded; the order alternates so neither side always goes first.
  for (let round = 0; round <= reps; round++) {
    const order = round % 2 === 0 ? ["zi", "baseline"] : ["baseline", "zi"];
    for (const side of order) {
      const child = side === "zi" ? children.spawnZi("zi (startup)") : children.spawnEcho("echo (startup)", 64);
      await BenchChildren.started(child);
      const ms = child.firstFrameAt - child.spawnedAt;
      const cpuAtReady = cpuMs(child.pid);
      await child.close();
      if (round === 0) continue;
      samples[side].push(ms);
      if (cpuAtReady !== undefined) cpu[side].push(cpuAtReady);
    }
  }
  report.ratio({
    name: `startup: spawn to ready${suffix}`,
    unit: "ms",
    zi: median(samples.zi),
    baseline: median(samples.baseline),
    better: "lower",
    target: 2,
    samples,
    details: cpuDetails(cpu),
  });
  cpuRow(report, `startup: CPU time to ready${suffix}`, cpu);
}
