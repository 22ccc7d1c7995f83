// Drives `zi --mode rpc` as the first-prompt bench row does (bench/lib/first-prompt.measure.mjs): a
// models.json provider on a local OpenAI-compatible server, `model.select`, a pause, then prompts. Prints,
// per run, each prompt's time from writing `session.prompt` to the first `message_update` and the main
// thread's CPU time in that window (ns in /proc/<pid>/task/<pid>/schedstat: it does not grow with the
// machine's load). For A/B runs of two builds and for profiling (docs/performance.md):
//   node bench/prompt-probe.mjs [--node PATH] [--zi dist/bin/zi.js] [--runs N] [--pause MS] [--api openai-responses] [-- node args]
// With PROBE_MONO=1 it also prints each window on the monotonic clock that --cpu-prof profiles use
// (and on the wall clock, for an import timeline); with PROBE_PAUSED=1 it makes a third prompt after
// another pause (was the first one's cost cold code, or only a pause before it?).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { BenchChildren } from "./lib/bench-children.mjs";
import { FrameType } from "./lib/frame-reader.mjs";
import { probeOptions, monotonicUs } from "./lib/probe-options.mjs";
import { mainThreadCpuMs } from "./lib/proc-cpu.mjs";
import { SseChatServer } from "./lib/sse-chat-server.mjs";

const { option, node, zi, runs, nodeArgs } = probeOptions();
const api = option("--api", "openai-completions");
const pause = Number(option("--pause", "300"));

const server = await SseChatServer.start();
// BenchChildren runs `node SCRIPT ARGS`: with Node flags given (after `--`), the first is the script
// position and Zi's path follows the rest.
const children = nodeArgs.length === 0
  ? new BenchChildren(zi, ["--mode", "rpc", "--no-session"], node)
  : new BenchChildren(nodeArgs[0], [...nodeArgs.slice(1), zi, "--mode", "rpc", "--no-session"], node);
const home = children.file("home");
mkdirSync(home);
writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: server.baseUrl, api, apiKey: "bench-key", models: [{ id: "m1" }] } } }));

async function prompt(child, name) {
  let at = 0, cpuAt = 0;
  child.tap = (line, _s, type) => { if (at === 0 && type === FrameType.sessionEvent && line.includes('"message_update"')) { at = performance.now(); cpuAt = mainThreadCpuMs(child.pid); } };
  const cpu0 = mainThreadCpuMs(child.pid), t0 = performance.now();
  await child.request("session.prompt", { delivery: "direct", text: "hi", completionId: name });
  const idle = await child.request("session.await_idle", { completionId: name });
  if (idle.result?.completion?.text !== "hello world") throw new Error(JSON.stringify(idle));
  child.tap = null;
  return { ms: at - t0, cpu: cpuAt - cpu0, window: `${monotonicUs(t0)}-${monotonicUs(at)} epoch ${(performance.timeOrigin + t0).toFixed(1)}-${(performance.timeOrigin + at).toFixed(1)}` };
}

for (let r = 0; r < runs; r++) {
  const child = await BenchChildren.started(children.spawnZi("zi", { ZI_HOME: home }));
  const selected = await child.request("model.select", { provider: "local", id: "m1" });
  if (!selected.ok) throw new Error(JSON.stringify(selected));
  await sleep(pause);
  const idleCpu = mainThreadCpuMs(child.pid);
  const first = await prompt(child, "first");
  const later = await prompt(child, "later");
  let paused;
  if (process.env.PROBE_PAUSED) {
    await sleep(pause);
    paused = await prompt(child, "paused");
  }
  await child.close();
  const f = (x) => x.toFixed(2);
  console.log(`first ${f(first.ms)} ms cpu ${f(first.cpu)} | later ${f(later.ms)} ms cpu ${f(later.cpu)} | cpu before prompt ${f(idleCpu)}${process.env.PROBE_MONO ? ` | mono first ${first.window} later ${later.window}` : ""}${paused ? ` | after a pause ${f(paused.ms)} ms cpu ${f(paused.cpu)}` : ""}`);
}
await server.stop();
children.dispose();
