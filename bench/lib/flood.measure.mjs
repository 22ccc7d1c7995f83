// 3. Pipelined throughput: every get_state request of a flood written at once, timed until the last
// response is read; against the echo child joining the answers to one input chunk into one write, and
// against its naive mode (one write per response, as a server that does not batch its output).
// 5. Zi's memory: idle RSS (settled after its first response, so the families it needs are loaded)
// against the echo child's, and the floods' peak (VmHWM, reset before each flood where the kernel
// allows, so it covers the flood and nothing earlier) against that idle figure.
import { setTimeout as sleep } from "node:timers/promises";
import { flood, floodRequests } from "./get-state-driver.mjs";
import { ProcMemory } from "./proc-memory.mjs";
import { median } from "./stats.mjs";

const IDLE_SETTLE_MS = 200;
const SAMPLE_MS = 5;
const RSS_LIMIT_MiB = 40;
const IDLE_LIMIT_MiB = 25;
const NAIVE_TARGET = 1.3;

export async function measureFlood(children, report, { sizes, reps, warmup }) {
  const largest = Math.max(...sizes);
  const zi = await children.zi("zi (flood)");
  const memory = new ProcMemory(zi.pid);
  await sleep(IDLE_SETTLE_MS);
  const afterReady = memory.read().rssMiB;
  const probe = await zi.request("session.get_state");
  if (probe.ok !== true) throw new Error(`zi: session.get_state failed: ${JSON.stringify(probe)}`);
  await sleep(IDLE_SETTLE_MS);
  const idle = memory.read().rssMiB;
  const echo = await children.echo("echo (flood)", zi.lastAnswerBytes);
  const naive = await children.echo("naive echo (flood)", zi.lastAnswerBytes, true);
  const echoMemory = new ProcMemory(echo.pid);
  const echoProbe = await echo.request("session.get_state");
  if (echoProbe.ok !== true) throw new Error("echo: no answer to its probe");
  await sleep(IDLE_SETTLE_MS);
  const echoIdle = echoMemory.read().rssMiB;

  const warm = floodRequests(warmup, "w");
  await flood(zi, warm);
  await flood(echo, warm);
  await flood(naive, warm);

  const samples = new Map(sizes.map((size) => [size, { zi: [], baseline: [], naive: [] }]));
  const peaks = new Map(sizes.map((size) => [size, []]));
  const echoPeaks = [];
  let sampled = 0;
  const sampler = setInterval(() => {
    try {
      sampled = Math.max(sampled, memory.read().rssMiB);
    } catch {
      // Zi has gone: the flood's wait reports that, with its stderr
    }
  }, SAMPLE_MS);
  let peakResets = true;
  try {
    for (let rep = 0; rep < reps; rep++) {
      for (const size of sizes) {
        const requests = floodRequests(size, `f${rep}-${size}-`);
        const order = rep % 2 === 0 ? ["zi", "baseline", "naive"] : ["naive", "baseline", "zi"];
        for (const side of order) {
          if (side === "zi") {
            peakResets &&= memory.resetPeak();
            sampled = memory.read().rssMiB;
          } else if (side === "baseline") {
            echoMemory.resetPeak();
          }
          const ms = await flood(side === "zi" ? zi : side === "baseline" ? echo : naive, requests);
          samples.get(size)[side].push((size * 1000) / ms);
          if (side === "zi") peaks.get(size).push(peakResets ? Math.max(memory.read().hwmMiB, sampled) : sampled);
          else if (side === "baseline" && size === largest) echoPeaks.push(echoMemory.read().hwmMiB);
        }
      }
    }
  } finally {
    clearInterval(sampler);
  }
  const afterRss = memory.read().rssMiB;
  await zi.close();
  await echo.close();
  await naive.close();

  for (const size of sizes) {
    const { zi: ziRates, baseline, naive: naiveRates } = samples.get(size);
    report.ratio({
      name: `pipelined ${size.toLocaleString("en-US")} get_state`,
      unit: "/s",
      zi: median(ziRates),
      baseline: median(baseline),
      better: "higher",
      target: 0.9,
      samples: { zi: ziRates, baseline },
    });
    report.ratio({
      name: `pipelined ${size.toLocaleString("en-US")} get_state vs naive echo`,
      unit: "/s",
      zi: median(ziRates),
      baseline: median(naiveRates),
      better: "higher",
      target: NAIVE_TARGET,
      samples: { zi: ziRates, baseline: naiveRates },
    });
  }
  report.delta({
    name: "idle RSS vs the echo child's",
    unit: "MiB",
    zi: idle,
    baseline: echoIdle,
    limit: IDLE_LIMIT_MiB,
    details: { ziAfterReadyMiB: afterReady, ziAfterFirstResponseMiB: idle, echoAfterFirstResponseMiB: echoIdle },
  });
  const peak = Math.max(...peaks.get(largest));
  report.delta({
    name: `zi RSS: ${largest.toLocaleString("en-US")} flood peak vs idle`,
    unit: "MiB",
    zi: peak,
    baseline: idle,
    limit: RSS_LIMIT_MiB,
    samples: { peakPerRepMiB: peaks.get(largest) },
    details: {
      method: peakResets ? "VmHWM reset via clear_refs before each flood, max with 5 ms VmRSS samples" : "max of 5 ms VmRSS samples (clear_refs refused)",
      idleMiB: idle,
      peakMiB: peak,
      // Zi loads its method families after `ready`: idle is taken once the first response is out.
      rssAfterReadyMiB: afterReady,
      rssAfterAllFloodsMiB: afterRss,
      peaksBySizeMiB: Object.fromEntries([...peaks].map(([size, values]) => [size, values])),
      // The same growth for the raw-Node echo child: what plain V8 heap growth looks like here.
      echoIdleMiB: echoIdle,
      echoPeakMiB: Math.max(...echoPeaks),
    },
  });
}
