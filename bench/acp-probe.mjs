// Drives `zi --mode acp` as the acp bench does (bench/lib/zed-like-run.mjs), and prints when
// each step answered (ms from spawn), the child's CPU time at the first chunk (all threads, and its
// main thread alone), the main thread's CPU time from session/new answered to the first chunk, and
// the later sessions; and the main thread's CPU time to `initialize` answered and from there to
// `session/new` answered, and in each later session from `session/new` sent to its first chunk. For A/B runs of two builds and for profiling (docs/performance.md, ACP):
//   node bench/acp-probe.mjs [--node PATH] [--zi dist/bin/zi.js] [--runs N] [--later N] [-- node args]
// With PROBE_MONO=1 it also prints the steps on the monotonic clock that --cpu-prof profiles use.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { SseChatServer } from "./lib/sse-chat-server.mjs";
import { mainThreadCpuMs } from "./lib/proc-cpu.mjs";
import { LATER_SESSIONS, zedLikeRun } from "./lib/zed-like-run.mjs";

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const extra = dash === -1 ? [] : argv.slice(dash + 1);
const opt = (name, fallback) => { const i = argv.indexOf(name); return i === -1 || (dash !== -1 && i > dash) ? fallback : argv[i + 1]; };
const node = opt("--node", process.execPath);
const zi = resolve(opt("--zi", "dist/bin/zi.js"));
const runs = Number(opt("--runs", "1"));
const later = Number(opt("--later", String(LATER_SESSIONS)));

const server = await SseChatServer.start();
const root = mkdtempSync(join(tmpdir(), "acp-probe-"));
const home = join(root, "home"), project = join(root, "project");
mkdirSync(home); mkdirSync(project);
writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: server.baseUrl, api: "openai-responses", apiKey: "bench-key", models: [{ id: "m1" }] } } }));
writeFileSync(join(home, "settings.json"), JSON.stringify({ defaultModel: "local/m1" }));
const env = { HOME: home, ZI_HOME: home, ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("NODE_") || k === "ZI_IMPORT_TIMELINE")) };
for (let r = 0; r < runs; r++) {
  const { spawned, initialized, sessions: [first, ...laters], cpuAtFirstChunk } = await zedLikeRun({ command: node, args: [...extra, zi, "--mode", "acp"], env, stderr: "inherit" }, project, { later, sample: mainThreadCpuMs });
  const f = (x) => x.toFixed(1);
  const mono = (x) => (Number(process.hrtime.bigint() / 1000n) - (performance.now() - x) * 1000).toFixed(0);
  const t0 = spawned.at, tInit = initialized.at, tNew = first.created.at, tChunk = first.chunk.at;
  if (process.env.PROBE_MONO) console.log(`mono spawn ${mono(t0)} init ${mono(tInit)} new ${mono(tNew)} chunk ${mono(tChunk)}`);
  console.log(`init ${f(tInit - t0)} new ${f(tNew - t0)} chunk ${f(tChunk - t0)} firstPrompt ${f(tChunk - tNew)} cpuAtChunk ${f(cpuAtFirstChunk)} mainCpuAtChunk ${f(first.chunk.sample)} mainCpuFirstPrompt ${f(first.chunk.sample - first.created.sample)} mainCpuInit ${f(initialized.sample)} mainCpuNew ${f(first.created.sample - initialized.sample)} later ${laters.map((s) => f(s.chunk.at - s.started.at)).join(",")} laterMainCpu ${laters.map((s) => f(s.chunk.sample - s.started.sample)).join(",")}`);
}
await server.stop();
rmSync(root, { recursive: true, force: true });
