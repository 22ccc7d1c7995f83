// 17. Garbage per request (issue 26, item 6): young-generation collections per 1,000 sequential
// `session.get_state`, Zi (`zi --mode rpc`) against pi 0.73.1 doing its own `get_state` in
// `pi --mode rpc` (the dev dependency, as in the pi-rpc rows). Both children run under
// `node --trace-gc`, which prints a line per collection and changes nothing else about the heap;
// the lines are counted from the child's stdout and stderr (V8 writes them to fd 1, which is the
// protocol pipe for pi and, once Zi has moved its protocol to a private descriptor, stderr for Zi).
// A collection count is load-independent, so the target is a count, not a ratio: ≤ 1 per 1,000 for
// Zi, with Zi/pi alongside as information. Counted over `count` requests after `warmup` requests, the
// median over `reps` fresh children of each, alternated.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { median } from "./stats.mjs";

const PI_VERSION = "0.73.1";
const LF = 0x0a;
/** `[pid:isolate]   123 ms: Scavenge …` (Node 20 and Node 26 alike); the rest of the line names the collection. */
const GC_LINE = /^\[\d+:0x[0-9a-f]+\]\s+[\d.]+ ms: /;
/** Young-generation collections: `Scavenge`, `Scavenge (during sweeping)`, `Minor Mark-Sweep`; the others are full ones. */
const YOUNG = /^(Scavenge|Minor )/;
/** `3.9 (4.0) -> 3.0 (5.0) MB`: the heap in use before and after, in MB (and what is reserved). */
const SIZES = /([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/;
const WAIT_TIMEOUT_MS = 120_000;

/** A JSONL child under --trace-gc: answers are parsed lines of stdout, collections are counted on both streams. */
class TracedChild {
  young = 0;
  full = 0;
  /** MB the young collections freed: about what was allocated between them. */
  youngFreedMb = 0;
  #waiter = null;
  #failure = null;
  #stderr = "";

  constructor(label, argv, env, cwd) {
    this.label = label;
    this.child = spawn(process.execPath, ["--trace-gc", ...argv], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdin.on("error", () => {});
    this.#lines(this.child.stdout, (line) => this.#onStdout(line));
    this.#lines(this.child.stderr, (line) => {
      if (!this.#count(line)) this.#stderr = `${this.#stderr}${line}\n`.slice(-4096);
    });
    this.exited = new Promise((done) => this.child.on("close", (code, signal) => done({ code, signal })));
    void this.exited.then((exit) => this.#fail(new Error(`${label} exited (${exit.signal ?? exit.code}) while an answer was awaited: ${this.#stderr}`)));
  }

  /** Resolves with the first parsed stdout record `match` accepts (the others are ignored). */
  next(match) {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolveNext, reject) => {
      const timer = setTimeout(() => this.#fail(new Error(`${this.label}: no answer within ${WAIT_TIMEOUT_MS} ms`)), WAIT_TIMEOUT_MS);
      this.#waiter = {
        match,
        resolve: (record) => (clearTimeout(timer), resolveNext(record)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
    });
  }

  write(line) {
    this.child.stdin.write(line);
  }

  async close() {
    this.child.stdin.end();
    const { code, signal } = await this.exited;
    if (code !== 0) throw new Error(`${this.label} exited (${signal ?? code}): ${this.#stderr}`);
  }

  #onStdout(line) {
    if (this.#count(line)) return;
    const waiter = this.#waiter;
    if (!waiter) return;
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      return this.#fail(new Error(`${this.label}: stdout line is neither JSON nor a GC trace: ${line.slice(0, 200)}`));
    }
    if (!waiter.match(record)) return;
    this.#waiter = null;
    waiter.resolve(record);
  }

  #count(line) {
    const head = GC_LINE.exec(line);
    if (head === null) return false;
    if (YOUNG.test(line.slice(head[0].length))) {
      this.young++;
      const sizes = SIZES.exec(line);
      if (sizes) this.youngFreedMb += Number(sizes[1]) - Number(sizes[2]);
    } else {
      this.full++;
    }
    return true;
  }

  #fail(error) {
    this.#failure ??= error;
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.reject(error);
  }

  /** Splits a stream on LF bytes (never on decoded text). */
  #lines(stream, onLine) {
    let parts = [];
    stream.on("data", (chunk) => {
      let start = 0;
      for (let nl = chunk.indexOf(LF, start); nl !== -1; nl = chunk.indexOf(LF, start)) {
        parts.push(chunk.subarray(start, nl));
        onLine(Buffer.concat(parts).toString("utf8"));
        parts = [];
        start = nl + 1;
      }
      if (start < chunk.length) parts.push(chunk.subarray(start));
    });
  }
}

/** `count` sequential requests (one in flight); returns the young and full collections they caused. */
async function sequential(child, kind, count, prefix) {
  const young = child.young;
  const full = child.full;
  const freed = child.youngFreedMb;
  for (let i = 0; i < count; i++) {
    const id = `${prefix}${i}`;
    const answered = child.next((record) => record.type === "response" && record.id === id);
    child.write(kind.request(id));
    const record = await answered;
    if (!kind.ok(record)) throw new Error(`${child.label}: get_state ${id} failed: ${JSON.stringify(record).slice(0, 300)}`);
  }
  return { young: child.young - young, full: child.full - full, freedMb: child.youngFreedMb - freed };
}

export async function measureGcPerRequest(children, report, { root, ziScript, ziArgs, reps, count, warmup }) {
  const piCli = resolve(root, "node_modules/@mariozechner/pi-coding-agent/dist/cli.js");
  const home = mkdtempSync(join(tmpdir(), "zi-bench-gc-"));
  // pi starts only with a model; get_state never calls it, so the endpoint is a closed local port.
  const provider = { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "sk-bench", models: [{ id: "m", name: "m", contextWindow: 128_000, maxTokens: 16_384 }] };
  writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: provider } }));
  const project = join(home, "project");
  mkdirSync(project);
  const kinds = {
    zi: {
      argv: [ziScript, ...ziArgs],
      env: () => {
        const ziHome = join(home, `zi-home-${Math.random().toString(36).slice(2)}`);
        mkdirSync(ziHome);
        const env = { ...process.env, ZI_HOME: ziHome };
        delete env.ZI_FAUX_SCRIPT;
        return env;
      },
      request: (id) => `{"version":1,"id":"${id}","method":"session.get_state"}\n`,
      ok: (record) => record.ok === true && record.method === "session.get_state" && typeof record.result === "object",
    },
    pi: {
      argv: [piCli, "--mode", "rpc", "--no-session", "--provider", "local", "--model", "m"],
      env: () => ({ PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: home, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" }),
      request: (id) => `{"id":"${id}","type":"get_state"}\n`,
      ok: (record) => record.success === true && record.command === "get_state" && typeof record.data === "object",
    },
  };
  const names = existsSync(piCli) ? ["zi", "pi"] : ["zi"];
  const perThousand = { zi: [], pi: [] };
  const fullCollections = { zi: [], pi: [] };
  // Heap per request, estimated from what the young collections freed (the trace's sizes are 0.1 MB steps).
  const kibPerRequest = { zi: [], pi: [] };
  try {
    for (let rep = 0; rep < reps; rep++) {
      for (const name of rep % 2 === 0 ? names : [...names].reverse()) {
        const kind = kinds[name];
        const child = new TracedChild(`${name} (gc)`, kind.argv, kind.env(), project);
        await sequential(child, kind, warmup, "w");
        const counted = await sequential(child, kind, count, "g");
        await child.close();
        perThousand[name].push((counted.young * 1000) / count);
        fullCollections[name].push(counted.full);
        kibPerRequest[name].push((counted.freedMb * 1024) / count);
      }
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  const havePi = names.includes("pi");
  report.atMost({
    name: `gc: young collections per 1,000 sequential get_state (${count} after ${warmup}), zi vs pi ${PI_VERSION} --mode rpc`,
    unit: "/1k",
    zi: median(perThousand.zi),
    baseline: havePi ? median(perThousand.pi) : null,
    limit: 1,
    samples: havePi ? perThousand : { zi: perThousand.zi },
    details: { fullCollections, kibPerRequest },
  });
  if (!havePi) report.skip(`gc: pi ${PI_VERSION} --mode rpc`, "the dev dependency @mariozechner/pi-coding-agent is not installed (npm ci)");
}
