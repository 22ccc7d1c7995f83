// 11. The first real prompt: Zi with a models.json provider pointing at a local OpenAI-compatible
// server (bench/lib/sse-chat-server.mjs). A fresh Zi selects the model, the client pauses 300 ms (a
// user typing; Zi warms the provider's SDK path then, core/models/provider-warmer.ts), and the time
// runs from writing `session.prompt` to reading the first `message_update`. The baseline is the
// second prompt in the same process, whose path is warm: the row says what a first prompt pays extra.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { BenchChildren } from "./bench-children.mjs";
import { FrameType } from "./frame-reader.mjs";
import { SseChatServer } from "./sse-chat-server.mjs";
import { median } from "./stats.mjs";

const USER_PAUSE_MS = 300;

async function promptToFirstDelta(zi, name) {
  let firstDeltaAt = 0;
  zi.tap = (line, _sequence, type) => {
    if (firstDeltaAt === 0 && type === FrameType.sessionEvent && line.includes('"message_update"')) firstDeltaAt = performance.now();
  };
  const start = performance.now();
  const prompt = await zi.request("session.prompt", { delivery: "direct", text: "hi", completionId: name });
  if (!prompt.ok) throw new Error(`first prompt bench: prompt refused: ${JSON.stringify(prompt.error)}`);
  const idle = await zi.request("session.await_idle", { completionId: name });
  if (!idle.ok || idle.result.completion?.text !== "hello world" || firstDeltaAt === 0) throw new Error(`first prompt bench: no reply: ${JSON.stringify(idle)}`);
  zi.tap = null;
  return firstDeltaAt - start;
}

export async function measureFirstPrompt(children, report, { reps }) {
  const server = await SseChatServer.start();
  const home = children.file("first-prompt-home");
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: server.baseUrl, apiKey: "bench-key", models: [{ id: "m1" }] } } }));
  const samples = { first: [], later: [] };
  try {
    // Round 0 warms the disk cache and is discarded.
    for (let round = 0; round <= reps; round++) {
      const zi = await BenchChildren.started(children.spawnZi("zi (first prompt)", { ZI_HOME: home }));
      const selected = await zi.request("model.select", { provider: "local", id: "m1" });
      if (!selected.ok) throw new Error(`first prompt bench: model.select failed: ${JSON.stringify(selected.error)}`);
      await sleep(USER_PAUSE_MS);
      const first = await promptToFirstDelta(zi, "first");
      const later = await promptToFirstDelta(zi, "later");
      await zi.close();
      if (round > 0) {
        samples.first.push(first);
        samples.later.push(later);
      }
    }
  } finally {
    await server.stop();
  }
  if (server.requests !== 2 * (reps + 1)) throw new Error(`first prompt bench: the server saw ${server.requests} requests, expected ${2 * (reps + 1)}`);
  report.ratio({
    name: "first real prompt (local OpenAI-compatible server): prompt to first message_update, first vs a later prompt",
    unit: "ms",
    zi: median(samples.first),
    baseline: median(samples.later),
    better: "lower",
    target: 1.5,
    samples: { zi: samples.first, baseline: samples.later },
  });
}
