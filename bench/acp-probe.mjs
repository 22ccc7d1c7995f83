// Drives `zi --mode acp` as the acp bench does (bench/lib/acp-first-reply.measure.mjs), and prints when
// each step answered (ms from spawn), the child's CPU time at the first chunk (all threads, and its
// main thread alone), the main thread's CPU time from session/new answered to the first chunk, and
// the later sessions; and the main thread's CPU time to `initialize` answered and from there to
// `session/new` answered, and in each later session from `session/new` sent to its first chunk. For A/B runs of two builds and for profiling (docs/performance.md, ACP):
//   node bench/acp-probe.mjs [--node PATH] [--zi dist/bin/zi.js] [--runs N] [--later N] [-- node args]
// With PROBE_MONO=1 it also prints the steps on the monotonic clock that --cpu-prof profiles use.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Readable, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import * as acp from "@agentclientprotocol/sdk";
import { SseChatServer } from "./lib/sse-chat-server.mjs";
import { cpuMs as cpu } from "./lib/proc-cpu.mjs";

// The main thread's time on CPU alone (ns in /proc/<pid>/task/<pid>/schedstat): the critical path.
const mainCpu = (pid) => { try { return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6; } catch { return Number.NaN; } };

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const extra = dash === -1 ? [] : argv.slice(dash + 1);
const opt = (name, fallback) => { const i = argv.indexOf(name); return i === -1 || (dash !== -1 && i > dash) ? fallback : argv[i + 1]; };
const node = opt("--node", process.execPath);
const zi = (await import("node:path")).resolve(opt("--zi", "dist/bin/zi.js"));
const runs = Number(opt("--runs", "1"));
const later = Number(opt("--later", "3"));

const server = await SseChatServer.start();
const root = mkdtempSync(join(tmpdir(), "acp-probe-"));
const home = join(root, "home"), project = join(root, "project");
mkdirSync(home); mkdirSync(project);
writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: server.baseUrl, api: "openai-responses", apiKey: "bench-key", models: [{ id: "m1" }] } } }));
writeFileSync(join(home, "settings.json"), JSON.stringify({ defaultModel: "local/m1" }));
for (let r = 0; r < runs; r++) {
  const t0 = performance.now();
  const child = spawn(node, [...extra, zi, "--mode", "acp"], { cwd: project, env: { PATH: process.env.PATH, HOME: home, ZI_HOME: home, ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("NODE_") || k === "ZI_IMPORT_TIMELINE")) }, stdio: ["pipe", "pipe", "inherit"] });
  const first = new Map();
  const app = acp.client({ name: "probe" }).onNotification("session/update", ({ params }) => {
    if (params.update.sessionUpdate === "agent_message_chunk" && !first.has(params.sessionId)) first.set(params.sessionId, [performance.now(), cpu(child.pid), mainCpu(child.pid)]);
  });
  const agent = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout))).agent;
  await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const tInit = performance.now();
  const mInit = mainCpu(child.pid);
  const s = await agent.request("session/new", { cwd: project, mcpServers: [] });
  const tNew = performance.now();
  const mNew = mainCpu(child.pid);
  await agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "hello" }] });
  const [tChunk, cChunk, mChunk] = first.get(s.sessionId);
  await sleep(300);
  const laters = [];
  const laterCpu = [];
  for (let i = 0; i < later; i++) {
    const a = performance.now();
    const m = mainCpu(child.pid);
    const { sessionId } = await agent.request("session/new", { cwd: project, mcpServers: [] });
    await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
    laters.push(first.get(sessionId)[0] - a);
    laterCpu.push(first.get(sessionId)[2] - m);
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.stdin.end();
  await exited;
  const f = (x) => x.toFixed(1);
  const mono = (x) => (Number(process.hrtime.bigint() / 1000n) - (performance.now() - x) * 1000).toFixed(0);
  if (process.env.PROBE_MONO) console.log(`mono spawn ${mono(t0)} init ${mono(tInit)} new ${mono(tNew)} chunk ${mono(tChunk)}`);
  console.log(`init ${f(tInit - t0)} new ${f(tNew - t0)} chunk ${f(tChunk - t0)} firstPrompt ${f(tChunk - tNew)} cpuAtChunk ${f(cChunk)} mainCpuAtChunk ${f(mChunk)} mainCpuFirstPrompt ${f(mChunk - mNew)} mainCpuInit ${f(mInit)} mainCpuNew ${f(mNew - mInit)} later ${laters.map(f).join(",")} laterMainCpu ${laterCpu.map(f).join(",")}`);
}
await server.stop();
rmSync(root, { recursive: true, force: true });
