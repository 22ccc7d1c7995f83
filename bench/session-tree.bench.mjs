// Session-tree benchmark (issue 28): `session.list` over 5,000 journals (the catalogue's first listing,
// which builds its index, and a later one in a fresh process, which reads the index and stats each
// file), against a raw readdir + stat of the same files; the same listing under `ulimit -n 64`; and the
// HTML export of a 2,000-message session, rendered and loaded in headless chromium, against chromium
// loading an empty page. Runs the compiled code (`npm run build` first). Prints one JSON object; the
// figures docs/sessions.md quotes come from here, and the run fails (exit 1) if a bound is missed.
//
//   node bench/session-tree.bench.mjs [journalCount]
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { median, round } from "./lib/stats.mjs";

const dist = resolve(process.env.ZI_BENCH_DIST ?? new URL("../dist", import.meta.url).pathname);
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const { SessionCatalog } = await load("core/journal/session-catalog.js");

// A child listing once: `--list DIR` (used for the fresh-process and fd-limit runs).
if (process.argv[2] === "--list") {
  const started = performance.now();
  const page = await new SessionCatalog(process.argv[3]).list(undefined, 0, 50);
  process.stdout.write(JSON.stringify({ ms: performance.now() - started, total: page.total }));
  process.exit(0);
}

const COUNT = Number(process.argv[2] ?? 5000);
const REPS = 5;
const LIST_BOUND_MS = 1000;
const RENDER_BOUND_MS = 2000;
const root = mkdtempSync(join(tmpdir(), "zi-tree-bench-"));
const sessions = join(root, "sessions");
mkdirSync(sessions);

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const line = (entry) => `${JSON.stringify(entry)}\n`;
for (let i = 0; i < COUNT; i++) {
  const id = `s-${i}`;
  let text = line({ type: "session", id: `h${i}`, parentId: null, timestamp: new Date(1_700_000_000_000 + i).toISOString(), version: 1, sessionId: id, cwd: i % 2 ? "/a" : "/b" });
  let parent = `h${i}`;
  for (let m = 0; m < 4; m++) {
    const message = m % 2 === 0 ? { role: "user", content: `prompt ${m} of ${i}`, timestamp: 1 } : { role: "assistant", content: [{ type: "text", text: `answer ${m}` }], api: "faux", provider: "faux", model: "echo", usage, stopReason: "stop", timestamp: 2 };
    text += line({ type: "message", id: `m${i}-${m}`, parentId: parent, timestamp: new Date().toISOString(), message });
    parent = `m${i}-${m}`;
  }
  writeFileSync(join(sessions, `2026-01-01T00-00-00-000Z_${id}.jsonl`), text, { mode: 0o600 });
}

const child = (args, shell = false) => {
  const result = shell ? spawnSync("sh", ["-c", args], { encoding: "utf8" }) : spawnSync(process.execPath, args, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`listing child failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
};
const self = new URL(import.meta.url).pathname;

const cold = child([self, "--list", sessions]);
const warm = [];
const raw = [];
for (let rep = 0; rep < REPS; rep++) {
  warm.push(child([self, "--list", sessions]).ms);
  const started = performance.now();
  for (const name of readdirSync(sessions)) statSync(join(sessions, name));
  raw.push(performance.now() - started);
}
const limited = child(`ulimit -n 64 && exec "${process.execPath}" "${self}" --list "${sessions}"`, true);

// The export: a 2,000-message session, rendered, then loaded by chromium (--dump-dom: load and print).
const { SessionJournal } = await load("core/journal/session-journal.js");
const { SessionHtmlExport } = await load("core/journal/session-html-export.js");
const journal = SessionJournal.inMemory("big", "/p");
for (let i = 0; i < 1000; i++) {
  journal.append({ type: "message", message: { role: "user", content: `question ${i} with \`code\` and *emphasis*`, timestamp: 1 } });
  journal.append({ type: "message", message: { role: "assistant", content: [{ type: "text", text: `answer ${i}\n\n- one\n- two\n\n\`\`\`\nconst x = ${i};\n\`\`\`` }], api: "faux", provider: "faux", model: "echo", usage, stopReason: "stop", timestamp: 2 } });
}
const renderStarted = performance.now();
const html = SessionHtmlExport.render([...journal.entries()]);
const renderMs = performance.now() - renderStarted;
const page = join(root, "big.html");
const empty = join(root, "empty.html");
writeFileSync(page, html);
writeFileSync(empty, "<!DOCTYPE html><html><body></body></html>");
const chromium = (file) =>
  new Promise((resolvePromise, reject) => {
    const profile = mkdtempSync(join(root, "profile-"));
    const started = performance.now();
    const browser = spawn(process.env.CHROMIUM_BIN ?? "chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", `--user-data-dir=${profile}`, "--dump-dom", `file://${file}`], { stdio: ["ignore", "pipe", "ignore"] });
    let bytes = 0;
    browser.stdout.on("data", (chunk) => (bytes += chunk.length));
    browser.on("error", reject);
    browser.on("close", () => resolvePromise({ ms: performance.now() - started, bytes }));
  });
const pageMs = [];
const emptyMs = [];
for (let rep = 0; rep < 3; rep++) {
  pageMs.push((await chromium(page)).ms);
  emptyMs.push((await chromium(empty)).ms);
}
rmSync(root, { recursive: true, force: true });

const loadOver = median(pageMs) - median(emptyMs);
const result = {
  journals: COUNT,
  list: {
    coldMs: round(cold.ms),
    warmMs: round(median(warm)),
    rawReaddirStatMs: round(median(raw)),
    warmVsRaw: round(median(warm) / median(raw)),
    fdLimit64Ms: round(limited.ms),
    totals: [cold.total, limited.total],
  },
  export2000: { htmlBytes: Buffer.byteLength(html), renderMs: round(renderMs), chromiumMs: round(median(pageMs)), chromiumEmptyPageMs: round(median(emptyMs)), renderPlusLoadOverEmptyMs: round(renderMs + loadOver) },
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
const missed = [];
if (cold.total !== COUNT || limited.total !== COUNT) missed.push("a listing did not see every journal");
if (median(warm) > LIST_BOUND_MS) missed.push(`listing ${COUNT} journals took ${median(warm)} ms (bound ${LIST_BOUND_MS})`);
if (renderMs + loadOver > RENDER_BOUND_MS) missed.push(`the 2,000-message export took ${renderMs + loadOver} ms to render and load (bound ${RENDER_BOUND_MS})`);
if (missed.length > 0) {
  process.stderr.write(`${missed.join("\n")}\n`);
  process.exit(1);
}
