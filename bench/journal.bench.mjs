// Journal benchmark: resume time of a 100k-message journal, and message-page latency (first, middle,
// last page) of that journal against a 100-message one. Runs the compiled code (`npm run build`
// first); ZI_BENCH_DIST points at another build output. Prints one JSON object to stdout.
//
//   node bench/journal.bench.mjs [messageCount]
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const dist = resolve(process.env.ZI_BENCH_DIST ?? new URL("../dist", import.meta.url).pathname);
const { SessionJournal } = await import(pathToFileURL(join(dist, "core/journal/session-journal.js")).href);

const LARGE = Number(process.argv[2] ?? 100_000);
const SMALL = 100;
const PAGE = 100;
const MAX_BYTES = 8 * 1024 * 1024;
const WARM_BATCHES = 9;
const BATCH_RUNS = 200;

const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
const usage = { input: 120, output: 80, cacheRead: 0, cacheWrite: 0, totalTokens: 200, cost };

function message(i) {
  const text = `message ${i}: ${"lorem ipsum dolor sit amet ".repeat(4 + (i % 20))}`;
  if (i % 2 === 0) return { role: "user", content: text, timestamp: 1_700_000_000_000 + i };
  const content = [{ type: "text", text }];
  const timestamp = 1_700_000_000_000 + i;
  return { role: "assistant", content, api: "faux", provider: "faux", model: "echo", usage, stopReason: "stop", timestamp };
}

/** A realistic mix: mostly messages, with outcomes and hidden custom messages in between. */
function build(dir, count) {
  const journal = SessionJournal.create(dir, `bench-${count}`, "/bench", { fsync: false });
  for (let i = 0; i < count; i++) {
    journal.append({ type: "message", message: message(i) });
    if (i % 50 === 0) journal.append({ type: "custom_message", customType: "ctx", content: `hidden ${i}`, display: false });
    if (i % 25 === 0) {
      const outcome = { operationId: `op-${i}`, capability: "bench", operation: "run", result: "ok", durationMs: i % 97 };
      journal.append({ type: "operation_outcome", ...outcome });
    }
  }
  journal.close();
  return journal.file;
}

const ms = (start) => performance.now() - start;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value) => Math.round(value * 10_000) / 10_000;

/** Opens the file once per page position so each position gets one cold (unmeasured bytes) call. */
function measure(file, count) {
  const positions = { first: 0, middle: Math.floor(Math.max(0, count - PAGE) / 2), last: Math.max(0, count - PAGE) };
  const openMs = [];
  const pages = {};
  for (const [name, start] of Object.entries(positions)) {
    let t = performance.now();
    const journal = SessionJournal.open(file, { fsync: false });
    openMs.push(ms(t));
    if (journal.messageCount !== count) throw new Error(`expected ${count} messages, got ${journal.messageCount}`);
    t = performance.now();
    const page = journal.getMessagePage(start, PAGE, MAX_BYTES);
    const coldMs = ms(t);
    if (page.messages.length !== PAGE) throw new Error(`short page at ${start}`);
    // Batches, since one warm page takes microseconds: the median batch mean resists GC pauses.
    const warm = [];
    for (let batch = 0; batch < WARM_BATCHES; batch++) {
      t = performance.now();
      for (let i = 0; i < BATCH_RUNS; i++) journal.getMessagePage(start, PAGE, MAX_BYTES);
      warm.push(ms(t) / BATCH_RUNS);
    }
    pages[name] = { start, coldMs: round(coldMs), warmMs: round(median(warm)) };
    journal.close();
  }
  return { openMs: openMs.map(round), pages };
}

/** The floor for resume: read the file and JSON.parse every line, nothing else. */
function readParseBaseline(file) {
  const t = performance.now();
  const text = readFileSync(file, "utf8");
  let count = 0;
  for (const line of text.split("\n")) if (line) (JSON.parse(line), count++);
  return { ms: round(ms(t)), lines: count };
}

const dir = mkdtempSync(join(tmpdir(), "zi-journal-bench-"));
try {
  let t = performance.now();
  const largeFile = build(dir, LARGE);
  const buildMs = ms(t);
  const smallFile = build(dir, SMALL);
  measure(smallFile, SMALL); // JIT warm-up, so the first measured journal is not penalised
  const large = measure(largeFile, LARGE);
  const small = measure(smallFile, SMALL);
  const baseline = readParseBaseline(largeFile);
  const ratio = {};
  for (const name of Object.keys(large.pages)) {
    ratio[name] = {
      cold: round(large.pages[name].coldMs / small.pages[name].coldMs),
      warm: round(large.pages[name].warmMs / small.pages[name].warmMs),
    };
  }
  const openMedian = median(large.openMs);
  const result = {
    benchmark: "journal",
    messages: { large: LARGE, small: SMALL },
    largeFile: { bytes: statSync(largeFile).size, entries: baseline.lines, buildMs: round(buildMs) },
    resume: {
      openMs: openMedian,
      samplesMs: large.openMs,
      readParseBaselineMs: baseline.ms,
      overBaseline: round(openMedian / baseline.ms),
    },
    pageMs: { large: large.pages, small: small.pages },
    pageRatioLargeOverSmall: ratio,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
