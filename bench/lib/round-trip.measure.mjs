// 2. Sequential round trips of session.get_state: one request, wait for its response, the next.
// The echo child answers with lines as long as Zi's get_state response.
import { roundTrips } from "./get-state-driver.mjs";
import { median } from "./stats.mjs";

export async function measureRoundTrips(children, report, { count, reps, warmup }) {
  const zi = await children.zi("zi (round trips)");
  const probe = await zi.request("session.get_state");
  if (probe.ok !== true) throw new Error(`zi: session.get_state failed: ${JSON.stringify(probe)}`);
  const responseBytes = zi.lastAnswerBytes;
  const echo = await children.echo("echo (round trips)", responseBytes);
  await roundTrips(zi, warmup, "w");
  await roundTrips(echo, warmup, "w");
  const samples = { zi: [], baseline: [] };
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? [["zi", zi], ["baseline", echo]] : [["baseline", echo], ["zi", zi]];
    for (const [side, child] of order) {
      const ms = await roundTrips(child, count, `r${rep}-`);
      samples[side].push((count * 1000) / ms);
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
    target: 0.85,
    samples,
    details: { responseBytes },
  });
  return responseBytes;
}
