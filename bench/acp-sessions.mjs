// The decision of docs/acp.md, measured: ACP sessions in-process (one `zi --mode acp`, one
// AgentSession per ACP session) against one `zi --mode rpc` child per session driven by the typed
// client. For each way: the time from asking for a new session to its first streamed token (faux/echo,
// "hello"), and resident memory (VmRSS) once N sessions have each answered a prompt. Each way is the
// other's baseline (the ratio column); nothing here is a gate.
//   node bench/acp-sessions.mjs [--sessions N] [--reps R]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import * as acp from "@agentclientprotocol/sdk";
import { ZiClient } from "../dist/client/client-api.js";
import { ProcMemory } from "./lib/proc-memory.mjs";
import { median, round } from "./lib/stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ZI = join(ROOT, "dist/bin/zi.js");
const { values } = parseArgs({ options: { sessions: { type: "string", default: "4" }, reps: { type: "string", default: "3" } } });
const SESSIONS = Number(values.sessions);
const REPS = Number(values.reps);

function home() {
  const dir = mkdtempSync(join(tmpdir(), "zi-acp-bench-"));
  writeFileSync(join(dir, "settings.json"), JSON.stringify({ defaultModel: "faux/echo" }));
  return dir;
}
const envFor = (dir) => ({ PATH: process.env.PATH ?? "", HOME: dir, ZI_HOME: dir });

/** One `zi --mode acp`, N sessions one after another: first-token times and the process's RSS. */
async function inProcess() {
  const dir = home();
  const child = spawn(process.execPath, [ZI, "--mode", "acp"], { cwd: dir, env: envFor(dir), stdio: ["pipe", "pipe", "inherit"] });
  const firstChunk = new Map();
  const app = acp.client({ name: "bench" }).onNotification("session/update", ({ params }) => {
    if (params.update.sessionUpdate === "agent_message_chunk" && !firstChunk.has(params.sessionId)) firstChunk.set(params.sessionId, performance.now());
  });
  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  const agent = connection.agent;
  await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const memory = new ProcMemory(child.pid);
  const baseMiB = memory.read().rssMiB;
  const firstTokenMs = [];
  const rssAfter = [];
  for (let i = 0; i < SESSIONS; i++) {
    const started = performance.now();
    const { sessionId } = await agent.request("session/new", { cwd: dir, mcpServers: [] });
    await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
    firstTokenMs.push(firstChunk.get(sessionId) - started);
    rssAfter.push(memory.read().rssMiB);
  }
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  rmSync(dir, { recursive: true, force: true });
  return { firstTokenMs, baseMiB, totalMiB: rssAfter.at(-1) };
}

/** One `zi --mode rpc` child per session through the typed client: the same measurements, summed. */
async function childPerSession() {
  const dir = home();
  const firstTokenMs = [];
  const clients = [];
  let totalMiB = 0;
  for (let i = 0; i < SESSIONS; i++) {
    const started = performance.now();
    const zi = await ZiClient.start({ ziPath: ZI, ziArgs: [], cwd: dir, env: envFor(dir) });
    clients.push(zi);
    let first;
    const off = zi.onEvent((event) => {
      if (first === undefined && event.type === "message_update" && event.assistantMessageEvent?.type === "text_delta") first = performance.now();
    });
    await zi.selectModel("faux", "echo");
    await zi.promptAndAwait("hello");
    off();
    firstTokenMs.push(first - started);
    totalMiB += new ProcMemory(zi.connection.child.pid).read().rssMiB;
  }
  for (const zi of clients) await zi.close();
  rmSync(dir, { recursive: true, force: true });
  return { firstTokenMs, totalMiB };
}

const rows = { inProcess: [], child: [] };
for (let rep = 0; rep < REPS; rep++) {
  rows.inProcess.push(await inProcess());
  rows.child.push(await childPerSession());
}
const med = (list, pick) => median(list.map(pick));
const a = {
  first: med(rows.inProcess, (r) => r.firstTokenMs[0]),
  later: med(rows.inProcess, (r) => median(r.firstTokenMs.slice(1))),
  total: med(rows.inProcess, (r) => r.totalMiB),
  perSession: med(rows.inProcess, (r) => (r.totalMiB - r.baseMiB) / SESSIONS),
};
const b = {
  first: med(rows.child, (r) => r.firstTokenMs[0]),
  later: med(rows.child, (r) => median(r.firstTokenMs.slice(1))),
  total: med(rows.child, (r) => r.totalMiB),
  perSession: med(rows.child, (r) => r.totalMiB / SESSIONS),
};
const line = (name, x, y, unit) => `| ${name} | ${round(x, 1)} ${unit} | ${round(y, 1)} ${unit} | ${round(y / x, 2)}x |`;
console.log(`${SESSIONS} sessions, median of ${REPS} runs, faux/echo "hello"\n`);
console.log("| measure | in-process (`zi --mode acp`) | child per session (`zi --mode rpc` + typed client) | child / in-process |");
console.log("| --- | --- | --- | --- |");
console.log(line("new session → first token, first session", a.first, b.first, "ms"));
console.log(line("new session → first token, later sessions", a.later, b.later, "ms"));
console.log(line(`RSS with ${SESSIONS} sessions`, a.total, b.total, "MiB"));
console.log(line("RSS per session", a.perSession, b.perSession, "MiB"));
