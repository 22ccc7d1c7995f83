// 12. In an editor: `zi --mode acp` with a models.json provider pointing at a local OpenAI-compatible
// server (bench/lib/sse-chat-server.mjs) as its default model, driven by the official ACP SDK as an
// editor drives it: spawn → `initialize` → `session/new` → `session/prompt`, timed to the first
// `agent_message_chunk`. Rows: spawn to that first chunk against the echo child's first answer; the
// first prompt (session/new answered → first chunk) against a later session's prompt in the same
// process (session/new → first chunk); and the same three against Codex's ACP agent on the same
// server, installed on first use into ~/.cache/zi-bench/codex-acp (skipped, with the reason, when it
// cannot be had). The agents' CPU time (user+sys, /proc) up to their first chunk is a row too: on a
// loaded machine it moves much less than the wall-clock times. The floor is a row too: this Node's
// own start, a bare `node -e` spawned to its first byte on stdout, against Codex's whole spawn to its
// first chunk; where that ratio is near 1 or above, no JavaScript agent run by this Node can be ≤ 1x.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { promisify } from "node:util";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { BenchChildren } from "./bench-children.mjs";
import { cpuRow } from "./proc-cpu.mjs";
import { SseChatServer } from "./sse-chat-server.mjs";
import { median } from "./stats.mjs";
import { zedLikeRun } from "./zed-like-run.mjs";

const CODEX_ACP = "@zed-industries/codex-acp@0.16.0";
const run = promisify(execFile);

/**
 * Codex's ACP agent (a native binary in a platform package), installed on first use into a cache the
 * bench owns, never as a project dependency; undefined, with the reason, when it cannot be had.
 */
async function codexAcp() {
  const dir = join(homedir(), ".cache", "zi-bench", "codex-acp");
  const binary = join(dir, "node_modules", "@zed-industries", `codex-acp-${process.platform}-${process.arch}`, "bin", "codex-acp");
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    try {
      await run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, CODEX_ACP]);
    } catch (error) {
      return { reason: `could not install ${CODEX_ACP} into ${dir}: ${error.message.split("\n")[0]}` };
    }
  }
  return existsSync(binary) ? { binary } : { reason: `${CODEX_ACP} has no binary for ${process.platform}-${process.arch}` };
}

/** Codex configured for the same local server (Responses API, the only one it speaks). */
function codexHome(root, baseUrl) {
  const home = join(root, "codex-home");
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "config.toml"), `model = "m1"\nmodel_provider = "local"\n[model_providers.local]\nname = "local"\nbase_url = "${baseUrl}"\nwire_api = "responses"\n`);
  return home;
}

/** A run's rows: spawn to the first chunk, the first prompt, the median later session, the CPU time at the first chunk. */
function timesOf({ spawned, sessions: [first, ...later], cpuAtFirstChunk }) {
  return {
    spawnToChunk: first.chunk.at - spawned.at,
    firstPrompt: first.chunk.at - first.created.at,
    later: median(later.map((session) => session.chunk.at - session.started.at)),
    cpu: cpuAtFirstChunk,
  };
}

/** This Node with nothing to load: spawn to the first byte it writes (the floor of any agent it runs). */
async function bareNodeFirstOutput() {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ["-e", 'process.stdout.write("x")'], { stdio: ["ignore", "pipe", "ignore"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise((resolve, reject) => {
    child.stdout.once("data", resolve);
    child.once("error", reject);
  });
  const ms = performance.now() - spawnedAt;
  await exited;
  return ms;
}

async function echoFirstAnswer(children) {
  const echo = children.spawnEcho("echo (acp baseline)", 64);
  const started = echo.spawnedAt;
  await BenchChildren.started(echo);
  await echo.request("session.get_state");
  const ms = performance.now() - started;
  await echo.close();
  return ms;
}

export async function measureAcpFirstReply(children, report, { reps, ziScript }) {
  const server = await SseChatServer.start();
  const home = children.file("acp-home");
  const project = children.file("acp-project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  // The Responses API, as Codex is configured, so both agents talk to the same server the same way.
  const provider = { baseUrl: server.baseUrl, api: "openai-responses", apiKey: "bench-key", models: [{ id: "m1" }] };
  writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: provider } }));
  writeFileSync(join(home, "settings.json"), JSON.stringify({ defaultModel: "local/m1" }));
  const zi = { command: process.execPath, args: [ziScript, "--mode", "acp"], env: { HOME: home, ZI_HOME: home } };
  const codex = await codexAcp();
  const codexDir = codex.binary ? codexHome(children.root, server.baseUrl) : undefined;
  const codexCommand = codexDir ? { command: codex.binary, args: [], env: { HOME: codexDir, CODEX_HOME: codexDir } } : undefined;
  const samples = { spawn: [], echo: [], bare: [], first: [], later: [], cpu: [], codexSpawn: [], codexFirst: [], codexLater: [], codexCpu: [] };
  try {
    for (let round = 0; round <= reps; round++) {
      const ziRun = timesOf(await zedLikeRun(zi, project));
      const codexRun = codexCommand ? timesOf(await zedLikeRun(codexCommand, project)) : undefined;
      const echo = await echoFirstAnswer(children);
      const bare = await bareNodeFirstOutput();
      if (round === 0) continue; // warms the disk cache
      samples.spawn.push(ziRun.spawnToChunk);
      samples.echo.push(echo);
      samples.bare.push(bare);
      samples.first.push(ziRun.firstPrompt);
      samples.later.push(ziRun.later);
      samples.cpu.push(ziRun.cpu);
      if (codexRun) {
        samples.codexCpu.push(codexRun.cpu);
        samples.codexSpawn.push(codexRun.spawnToChunk);
        samples.codexFirst.push(codexRun.firstPrompt);
        samples.codexLater.push(codexRun.later);
      }
    }
  } finally {
    await server.stop();
  }
  const row = (name, zi, baseline, target) =>
    report.ratio({ name, unit: "ms", zi: median(zi), baseline: median(baseline), better: "lower", target, samples: { zi, baseline } });
  row("acp: spawn to first agent_message_chunk (local server) vs the echo child's first answer", samples.spawn, samples.echo, null);
  row("acp: spawn to first agent_message_chunk vs a bare `node -e` spawn to its first output (the floor)", samples.spawn, samples.bare, null);
  row("acp: first prompt (session/new answered to first chunk) vs a later session's (session/new to first chunk)", samples.first, samples.later, 1.5);
  if (!codexCommand) return report.skip("acp: vs Codex's ACP agent", codex.reason);
  row(`acp: spawn to first agent_message_chunk, Zi vs ${CODEX_ACP}`, samples.spawn, samples.codexSpawn, 1);
  row(`acp: the floor, a bare \`node -e\` (node ${process.version}) spawn to its first output, vs ${CODEX_ACP}'s spawn to first chunk`, samples.bare, samples.codexSpawn, null);
  row(`acp: first prompt to first chunk, Zi vs ${CODEX_ACP}`, samples.first, samples.codexFirst, null);
  row(`acp: a later session, session/new to first chunk, Zi vs ${CODEX_ACP}`, samples.later, samples.codexLater, null);
  cpuRow(report, `acp: CPU time (user+sys) from spawn to the first chunk, Zi vs ${CODEX_ACP}`, { zi: samples.cpu.filter((ms) => ms !== undefined), baseline: samples.codexCpu.filter((ms) => ms !== undefined) });
}
