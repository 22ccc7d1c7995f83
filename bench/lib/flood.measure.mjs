// 3. Pipelined throughput: every get_state request of a flood written at once, timed until the last
// response is read; the echo child joins the answers to one input chunk into one write.
// 5. Zi's memory during the floods: idle RSS right after `ready`, and the peak (VmHWM, reset before
// each flood where the kernel allows, so it covers the flood and nothing earlier).
import { setTimeout as sleep } from "node:timers/promises";
import { flood, floodRequests } from "./get-state-driver.mjs";
import { ProcMemory } from "./proc-memory.mjs";
import { median } from "./stats.mjs";

const IDLE_SETTLE_MS = 200;
const SAMPLE_MS = 5;
const RSS_LIMIT_MiB = 40;

export async function measureFlood(children, report, { sizes, reps, warmup }) {
  const largest = Math.max(...sizes);
  const zi = await children.zi("zi (flood)");
  const memory = new ProcMemory(zi.pid);
  await sleep(IDLE_SETTLE_MS);
  const idle = memory.read().rssMiB;
  const probe = await zi.request("session.get_state");
  if (probe.ok !== true) throw new Error(`zi: session.get_state failed: ${JSON.stringify(probe)}`);
  await sleep(IDLE_SETTLE_MS);
  const afterFirstRequest = memory.read().rssMiB;
  const echo = await children.echo("echo (flood)", zi.lastAnswerBytes);
  const echoMemory = new ProcMemory(echo.pid);
  await sleep(IDLE_SETTLE_MS);
  const echoIdle = echoMemory.read().rssMiB;

  const warm = floodRequests(warmup, "w");
  await flood(zi, warm);
  await flood(echo, warm);

  const samples = new Map(sizes.map((size) => [size, { zi: [], baseline: [] }]));
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
        const order = rep % 2 === 0 ? ["zi", "baseline"] : ["baseline", "zi"];
        for (const side of order) {
          if (side === "zi") {
            peakResets &&= memory.resetPeak();
            sampled = memory.read().rssMiB;
          } else {
            echoMemory.resetPeak();
          }
          const ms = await flood(side === "zi" ? zi : echo, requests);
          samples.get(size)[side].push((size * 1000) / ms);
          if (side === "zi") peaks.get(size).push(peakResets ? Math.max(memory.read().hwmMiB, sampled) : sampled);
          else if (size === largest) echoPeaks.push(echoMemory.read().hwmMiB);
        }
      }
    }
  } finally {
    clearInterval(sampler);
  }
  const afterRss = memory.read().rssMiB;
  await zi.close();
  await echo.close();

  for (const size of sizes) {
    const { zi: ziRates, baseline } = samples.get(size);
    report.ratio({
      name: `pipelined ${size.toLocaleString("en-US")} get_state`,
      unit: "/s",
      zi: median(ziRates),
      baseline: median(baseline),
      better: "higher",
      target: 0.9,
      samples: samples.get(size),
    });
  }
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
      // Zi loads its method families after `ready`: how much of the growth is that, not the flood.
      rssAfterFirstRequestMiB: afterFirstRequest,
      rssAfterAllFloodsMiB: afterRss,
      peaksBySizeMiB: Object.fromEntries([...peaks].map(([size, values]) => [size, values])),
      // The same growth for the raw-Node echo child: what plain V8 heap growth looks like here.
      echoIdleMiB: echoIdle,
      echoPeakMiB: Math.max(...echoPeaks),
    },
  });
}
