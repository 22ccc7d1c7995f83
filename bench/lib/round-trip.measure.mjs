// 2. Sequential round trips of session.get_state: one request, wait for its response, the next.
// The echo child answers with lines as long as Zi's get_state response. Besides the rate: the latency
// of one round trip, its p50 and p99 per repetition (the median of those over the repetitions).
import { roundTrips } from "./get-state-driver.mjs";
import { median, percentile } from "./stats.mjs";

export async function measureRoundTrips(children, report, { count, reps, warmup }) {
  const zi = await children.zi("zi (round trips)");
  const probe = await zi.request("session.get_state");
  if (probe.ok !== true) throw new Error(`zi: session.get_state failed: ${JSON.stringify(probe)}`);
  const responseBytes = zi.lastAnswerBytes;
  const echo = await children.echo("echo (round trips)", responseBytes);
  await roundTrips(zi, warmup, "w");
  await roundTrips(echo, warmup, "w");
  const samples = { zi: [], baseline: [] };
  const p50 = { zi: [], baseline: [] };
  const p99 = { zi: [], baseline: [] };
  const latencies = new Float64Array(count);
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? [["zi", zi], ["baseline", echo]] : [["baseline", echo], ["zi", zi]];
    for (const [side, child] of order) {
      const ms = await roundTrips(child, count, `r${rep}-`, latencies);
      samples[side].push((count * 1000) / ms);
      p50[side].push(percentile(latencies, 50));
      p99[side].push(percentile(latencies, 99));
    }
  }
  await zi.close();
  await echo.close();
  report.ratio({
    name: `round trips (${count} sequential get_state)`,
    unit: "/s",
    zi: median(samples.zi),
    baseline: median(samples.baseline),
    better: "higher",
    target: 0.95,
    samples,
    details: { responseBytes },
  });
  for (const [name, values, target] of [["p50", p50, null], ["p99", p99, 1.5]]) {
    report.ratio({
      name: `round trip latency ${name}`,
      unit: "ms",
      zi: median(values.zi),
      baseline: median(values.baseline),
      better: "lower",
      target,
      samples: values,
    });
  }
  return responseBytes;
}
