// Import timeline for docs/performance.md: `node --import ./scripts/import-timeline.mjs dist/bin/zi.js ...`
// records when each module is loaded (ms since process start, by the load hook) and, at exit, writes
// to stderr (or to $ZI_IMPORT_TIMELINE as JSON) the modules grouped by package in load order.
import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const { port1, port2 } = new MessageChannel();
const loads = [];
port1.on("message", (message) => loads.push(message));
port1.unref();
const hooks = `
let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) {
  const t0 = performance.timeOrigin + performance.now();
  const result = await next(url, context);
  port.postMessage({ url, at: t0, loadMs: performance.timeOrigin + performance.now() - t0 });
  return result;
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { port: port2 }, transferList: [port2] });

function group(url) {
  const nm = url.lastIndexOf("/node_modules/");
  if (nm !== -1) {
    const rest = url.slice(nm + 14).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith("node:")) return "node:";
  const dist = url.indexOf("/dist/");
  return dist !== -1 ? `zi:${url.slice(dist + 6).split("/").slice(0, 2).join("/")}` : url;
}

process.on("exit", () => {
  const origin = performance.timeOrigin;
  const byGroup = new Map();
  for (const { url, at, loadMs } of loads) {
    const g = group(url);
    const entry = byGroup.get(g) ?? { group: g, modules: 0, firstMs: Infinity, lastMs: 0, loadMs: 0 };
    entry.modules++;
    entry.firstMs = Math.min(entry.firstMs, at - origin);
    entry.lastMs = Math.max(entry.lastMs, at - origin);
    entry.loadMs += loadMs;
    byGroup.set(g, entry);
  }
  const rows = [...byGroup.values()].sort((a, b) => a.firstMs - b.firstMs);
  if (process.env.ZI_IMPORT_TIMELINE) {
    writeFileSync(process.env.ZI_IMPORT_TIMELINE, JSON.stringify({ modules: loads.length, rows, loads: loads.map((l) => ({ ...l, at: l.at - origin })) }, null, 1));
    return;
  }
  for (const r of rows) process.stderr.write(`${r.firstMs.toFixed(1).padStart(8)} ${r.lastMs.toFixed(1).padStart(8)} ms  ${String(r.modules).padStart(4)} modules  ${r.group}\n`);
});
