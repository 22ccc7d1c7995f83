// 9. Search: Zi's grep and find on a generated tree of 21,000 files where most are ignored, against
// ripgrep itself (`rg --hidden --glob '!.git'`, spawned as a user would) in the same run, with
// ripgrep and with the Node search, and side by side with pi 0.73.1's grep and find (installed on
// first use into a cache directory, not as a project dependency; its find needs fd, Debian's
// `fdfind`). The tools are called in this process, as a session calls them.
import { execFile, execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { BenchChildren } from "./bench-children.mjs";
import { FrameType } from "./frame-reader.mjs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { ChildExits } from "./child-exits.mjs";
import { cpuRow, cpuWithChildrenMs } from "./proc-cpu.mjs";
import { searchTree } from "./search-tree.mjs";
import { median } from "./stats.mjs";

const NO_MATCH = "zi_bench_no_such_token_7f3a";
/** Found on many lines of most files: a search that must stop early to be fast. */
const MANY = "function";
const MANY_SHOWN = 100;
/** Found in a few files spread over the tree (Zi's own source text): the ordered search walks it all. */
const FEW = "class RipgrepSearch";
export const PI_VERSION = "0.73.1";
const run = promisify(execFile);

async function timed(action) {
  const start = performance.now();
  await action();
  return performance.now() - start;
}

/** Alternates the contenders rep by rep (after one warm-up each), so load hits all alike. */
async function compare(contenders, reps) {
  const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let rep = -1; rep < reps; rep++) {
    for (const [name, action] of Object.entries(contenders)) {
      const ms = await timed(action);
      if (rep >= 0) samples[name].push(ms);
    }
  }
  return samples;
}

/**
 * CPU time per call of each contender, this process and its children together (the children's time
 * is counted when they are reaped, so each batch of `calls` waits for the children still running
 * before it is read): unlike wall-clock time it hardly moves with the other work on the machine.
 * Batches alternate.
 */
async function cpuPerCall(contenders, rounds, calls, exits) {
  const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, action] of Object.entries(contenders)) {
      await exits.exited();
      const before = cpuWithChildrenMs(process.pid);
      for (let call = 0; call < calls; call++) await action();
      await exits.exited();
      samples[name].push((cpuWithChildrenMs(process.pid) - before) / calls);
    }
  }
  return samples;
}

/** pi's package directory in the bench's cache, installed there on first use (the tui rows use it too). */
export async function piPackageDir() {
  const dir = join(tmpdir(), `zi-bench-pi-${PI_VERSION}`);
  const pkg = join(dir, "node_modules/@mariozechner/pi-coding-agent");
  if (!existsSync(join(pkg, "dist/index.js"))) {
    mkdirSync(dir, { recursive: true });
    await run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, `@mariozechner/pi-coding-agent@${PI_VERSION}`]);
  }
  return pkg;
}

async function loadPi() {
  return import(pathToFileURL(join(await piPackageDir(), "dist/index.js")).href);
}

/**
 * pi's find runs `fd --no-require-git`, a flag fd gained in 8.7; Debian 12 ships fd 8.6 as `fdfind`. The
 * tree is a git repository, where the flag changes nothing, so a shim named `fd` drops it and runs fdfind.
 */
function fdShim() {
  const dir = join(tmpdir(), "zi-bench-fd-shim");
  mkdirSync(dir, { recursive: true });
  const shim = join(dir, "fd");
  writeFileSync(shim, '#!/bin/sh\nfor a in "$@"; do shift; [ "$a" = --no-require-git ] || set -- "$@" "$a"; done\nexec fdfind "$@"\n');
  chmodSync(shim, 0o755);
  return dir;
}

const has = (command) => {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/**
 * The same grep as a session's tool call over RPC: a `faux/scripted` reply asks for it, and the time
 * runs from writing `session.prompt` to reading the `tool_execution_end` frame (the model step, the
 * tool, its events, the frame); the in-process call is timed in the same rounds.
 */
async function rpcToolRow(children, report, { dir, reps, inProcess, label }) {
  const args = { pattern: NO_MATCH, path: dir };
  const responses = [];
  for (let rep = 0; rep <= reps; rep++) responses.push({ toolCalls: [{ name: "grep", arguments: args }] }, { text: "done" });
  const scriptFile = children.file("search-rpc-script.json");
  writeFileSync(scriptFile, JSON.stringify({ responses }));
  const zi = await BenchChildren.started(children.spawnZi("zi (search over rpc)", { ZI_FAUX_SCRIPT: scriptFile }));
  const selected = await zi.request("model.select", { provider: "faux", id: "scripted" });
  if (!selected.ok) throw new Error(`search bench: model.select faux/scripted failed: ${JSON.stringify(selected.error)}`);
  let endedAt = 0;
  zi.tap = (line, _sequence, type) => {
    if (type === FrameType.sessionEvent && line.includes('"tool_execution_end"')) endedAt = performance.now();
  };
  const samples = { rpc: [], inProcess: [] };
  for (let rep = 0; rep <= reps; rep++) {
    const start = performance.now();
    const prompt = await zi.request("session.prompt", { delivery: "direct", text: `grep ${rep}`, completionId: `g${rep}` });
    if (!prompt.ok) throw new Error(`search bench: prompt refused: ${JSON.stringify(prompt.error)}`);
    const idle = await zi.request("session.await_idle", { completionId: `g${rep}` });
    if (!idle.ok || idle.result.completion?.text !== "done" || endedAt < start) throw new Error(`search bench: the grep prompt did not complete: ${JSON.stringify(idle)}`);
    const rpcMs = endedAt - start;
    const inProcessMs = await timed(inProcess);
    if (rep > 0) {
      samples.rpc.push(rpcMs);
      samples.inProcess.push(inProcessMs);
    }
  }
  await zi.close();
  report.ratio({
    name: `search: grep, no match, ${label}: tool result over RPC vs in process`,
    unit: "ms",
    zi: median(samples.rpc),
    baseline: median(samples.inProcess),
    better: "lower",
    target: 1.1,
    samples: { zi: samples.rpc, baseline: samples.inProcess },
  });
}

export async function measureSearch(report, options) {
  // From the first call on: a ripgrep an earlier row stopped may still be running when the CPU rows start.
  const exits = ChildExits.follow();
  try {
    return await searchRows(report, { ...options, exits });
  } finally {
    exits.stop();
  }
}

async function searchRows(report, { root, reps, children, exits }) {
  if (!has("rg")) return report.skip("search", "ripgrep (rg) is not installed: it is the baseline");
  const { dir, files } = searchTree(root);
  const { GrepTool } = await import(pathToFileURL(join(root, "dist/plugins/coding-tools/grep.tool.js")).href);
  const { FindTool } = await import(pathToFileURL(join(root, "dist/plugins/coding-tools/find.tool.js")).href);
  const context = { cwd: dir, signal: new AbortController().signal, onUpdate: () => undefined };
  const text = (result) => result.content.map((part) => part.text ?? "").join("");
  const expect = (result, predicate, what) => {
    if (!predicate(text(result))) throw new Error(`search bench: ${what} gave an unexpected result: ${text(result).slice(0, 200)}`);
  };
  const rg = (args) => run("rg", ["--hidden", "--glob", "!.git", ...args], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch((error) => {
    if (error.code !== 1) throw error;
  });
  /** rg stopped once it has printed `lines` matches, as pi stops it: the floor for a limited search. */
  const rgLimited = (args, lines) =>
    new Promise((resolve, reject) => {
      const child = spawn("rg", ["--hidden", "--glob", "!.git", ...args], { cwd: dir, stdio: ["ignore", "pipe", "ignore"] });
      let seen = 0;
      child.stdout.on("data", (chunk) => {
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) if (++seen === lines) child.kill("SIGKILL");
      });
      child.once("error", reject);
      child.once("close", () => (seen >= Math.min(lines, 1) ? resolve() : reject(new Error("search bench: limited rg found nothing"))));
    });
  const zi = {
    grepMany: async () => expect(await new GrepTool().execute({ pattern: MANY }, context), (t) => t.split("\n").length > MANY_SHOWN && t.includes("more exist"), "grep (many)"),
    grepManyNode: async () => expect(await new GrepTool(false).execute({ pattern: MANY }, context), (t) => t.split("\n").length > MANY_SHOWN && t.includes("more exist"), "grep (many, Node)"),
    grepRg: async () => expect(await new GrepTool().execute({ pattern: NO_MATCH }, context), (t) => t === "No matches found.", "grep"),
    grepNode: async () => expect(await new GrepTool(false).execute({ pattern: NO_MATCH }, context), (t) => t === "No matches found.", "grep (Node)"),
    findRg: async () => expect(await new FindTool().execute({ pattern: "*.ts" }, context), (t) => t.startsWith("packages/") || t.startsWith("src/"), "find"),
    findNode: async () => expect(await new FindTool(false).execute({ pattern: "*.ts" }, context), (t) => t.startsWith("packages/") || t.startsWith("src/"), "find (Node)"),
  };
  const label = `${files.toLocaleString("en-US")} files`;

  // The Node rows' results must equal ripgrep's, or their ratios mean nothing.
  const same = async (pattern) => {
    const [withRg, withNode] = [await new GrepTool().execute({ pattern }, context), await new GrepTool(false).execute({ pattern }, context)];
    if (text(withRg) !== text(withNode)) throw new Error(`search bench: grep ${pattern} differs with and without ripgrep`);
  };
  await same(MANY);
  const many = await compare({ zi: zi.grepMany, ziNode: zi.grepManyNode, rg: () => rgLimited(["--", MANY, "."], MANY_SHOWN) }, reps);
  const grep = await compare({ zi: zi.grepRg, ziNode: zi.grepNode, rg: () => rg(["--", NO_MATCH, "."]) }, reps);
  const find = await compare({ zi: zi.findRg, ziNode: zi.findNode, rg: () => rg(["--files", "."]) }, reps);
  const row = (name, samples, baseline, target) =>
    report.ratio({ name, unit: "ms", zi: median(samples), baseline: median(baseline), better: "lower", target, samples: { zi: samples, baseline } });
  row(`search: grep ${MANY} (${MANY_SHOWN} shown), ${label} (rg installed) vs rg stopped at ${MANY_SHOWN}`, many.zi, many.rg, 1.5);
  row(`search: grep ${MANY} (${MANY_SHOWN} shown), ${label} (Node search) vs rg stopped at ${MANY_SHOWN}`, many.ziNode, many.rg, null);
  row(`search: grep, no match, ${label} (rg installed) vs rg`, grep.zi, grep.rg, 1.2);
  row(`search: grep, no match, ${label} (Node search) vs rg`, grep.ziNode, grep.rg, 4);
  row(`search: find *.ts, ${label} (rg installed) vs rg --files`, find.zi, find.rg, 2);
  row(`search: find *.ts, ${label} (Node search) vs rg --files`, find.ziNode, find.rg, 2);
  if (cpuWithChildrenMs(process.pid) !== undefined) {
    const few = () => new GrepTool().execute({ pattern: FEW }, context);
    const cpu = await cpuPerCall({ many: zi.grepMany, few, none: zi.grepRg, rg: () => rg(["--", NO_MATCH, "."]) }, 3, reps * 2, exits);
    cpuRow(report, `search: grep ${MANY} (${MANY_SHOWN} shown), ${label} (rg installed), CPU time per call (Zi and its children) vs rg's no-match search`, { zi: cpu.many, baseline: cpu.rg });
    cpuRow(report, `search: grep "${FEW}" (a few files match), ${label} (rg installed), CPU time per call vs rg's no-match search`, { zi: cpu.few, baseline: cpu.rg });
    cpuRow(report, `search: grep, no match, ${label} (rg installed), CPU time per call vs rg`, { zi: cpu.none, baseline: cpu.rg });
  }

  await rpcToolRow(children, report, { dir, reps, inProcess: zi.grepRg, label });

  let pi;
  try {
    pi = await loadPi();
  } catch (error) {
    return report.skip(`search: pi ${PI_VERSION}`, `could not install @mariozechner/pi-coding-agent@${PI_VERSION}: ${error.message.split("\n")[0]}`);
  }
  const piGrep = pi.createGrepTool(dir);
  const piFind = pi.createFindTool(dir);
  const piCall = (tool, params) => async () => {
    const result = await tool.execute("bench", params, undefined, undefined);
    if (!Array.isArray(result?.content)) throw new Error(`search bench: pi's ${tool.name} returned no content`);
  };
  const manyPi = await compare({ zi: zi.grepMany, pi: piCall(piGrep, { pattern: MANY, limit: MANY_SHOWN }) }, reps);
  row(`search: grep ${MANY} (${MANY_SHOWN} shown), ${label}: Zi vs pi ${PI_VERSION}`, manyPi.zi, manyPi.pi, 1.2);
  const withPi = await compare({ zi: zi.grepRg, pi: piCall(piGrep, { pattern: NO_MATCH }), rg: () => rg(["--", NO_MATCH, "."]) }, reps);
  row(`search: pi ${PI_VERSION} grep, no match, ${label} vs rg`, withPi.pi, withPi.rg, null);
  row(`search: grep, no match, ${label}: Zi vs pi ${PI_VERSION}`, withPi.zi, withPi.pi, null);
  if (!has("fd") && !has("fdfind")) return report.skip(`search: pi ${PI_VERSION} find`, "pi's find needs fd (Debian: fd-find)");
  if (!has("fd")) process.env.PATH = `${fdShim()}:${process.env.PATH}`;
  const findPi = await compare({ zi: zi.findRg, pi: piCall(piFind, { pattern: "*.ts" }), rg: () => rg(["--files", "."]) }, reps);
  row(`search: pi ${PI_VERSION} find *.ts, ${label} vs rg --files`, findPi.pi, findPi.rg, null);
  row(`search: find *.ts, ${label}: Zi vs pi ${PI_VERSION}`, findPi.zi, findPi.pi, null);
}
