// Drives `zi --mode acp` as the acp bench does (bench/lib/zed-like-run.mjs), and prints when
// each step answered (ms from spawn), the child's CPU time at the first chunk (all threads, and its
// main thread alone), the main thread's CPU time from session/new answered to the first chunk, and
// the later sessions; and the main thread's CPU time to `initialize` answered and from there to
// `session/new` answered, and in each later session from `session/new` sent to its first chunk. For A/B runs of two builds and for profiling (docs/performance.md, ACP):
//   node bench/acp-probe.mjs [--node PATH] [--zi dist/bin/zi.js] [--runs N] [--later N] [-- node args]
// With PROBE_MONO=1 it also prints the steps on the monotonic clock that --cpu-prof profiles use.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SseChatServer } from "./lib/sse-chat-server.mjs";
import { probeOptions, monotonicUs } from "./lib/probe-options.mjs";
import { mainThreadCpuMs } from "./lib/proc-cpu.mjs";
import { LATER_SESSIONS, zedLikeRun } from "./lib/zed-like-run.mjs";

const { option, node, zi, runs, nodeArgs } = probeOptions();
const later = Number(option("--later", String(LATER_SESSIONS)));

const server = await SseChatServer.start();
const root = mkdtempSync(join(tmpdir(), "acp-probe-"));
const home = join(root, "home"), project = join(root, "project");
mkdirSync(home); mkdirSync(project);
writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: server.baseUrl, api: "openai-responses", apiKey: "bench-key", models: [{ id: "m1" }] } } }));
writeFileSync(join(home, "settings.json"), JSON.stringify({ defaultModel: "local/m1" }));
const env = { HOME: home, ZI_HOME: home, ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("NODE_") || k === "ZI_IMPORT_TIMELINE")) };
for (let r = 0; r < runs; r++) {
  const { spawned, initialized, sessions: [first, ...laters], cpuAtFirstChunk } = await zedLikeRun({ command: node, args: [...nodeArgs, zi, "--mode", "acp"], env, stderr: "inherit" }, project, { later, sample: mainThreadCpuMs });
  const f = (x) => x.toFixed(1);
  const t0 = spawned.at, tInit = initialized.at, tNew = first.created.at, tChunk = first.chunk.at;
  if (process.env.PROBE_MONO) console.log(`mono spawn ${monotonicUs(t0)} init ${monotonicUs(tInit)} new ${monotonicUs(tNew)} chunk ${monotonicUs(tChunk)}`);
  console.log(`init ${f(tInit - t0)} new ${f(tNew - t0)} chunk ${f(tChunk - t0)} firstPrompt ${f(tChunk - tNew)} cpuAtChunk ${f(cpuAtFirstChunk)} mainCpuAtChunk ${f(first.chunk.sample)} mainCpuFirstPrompt ${f(first.chunk.sample - first.created.sample)} mainCpuInit ${f(initialized.sample)} mainCpuNew ${f(first.created.sample - initialized.sample)} later ${laters.map((s) => f(s.chunk.at - s.started.at)).join(",")} laterMainCpu ${laters.map((s) => f(s.chunk.sample - s.started.sample)).join(",")}`);
}
await server.stop();
rmSync(root, { recursive: true, force: true });
