// The pi-RPC rows: the same pi-RPC workload against `pi --mode rpc` (pi 0.73.1, the dev dependency)
// and `zi --mode pi-rpc`, both on one local OpenAI-compatible endpoint (bench/lib/sse-model-server.mjs),
// so both read identical bytes and neither calls out. Every figure is Zi's time over pi's, measured
// alternately in the same run; first-response rows also give `zi --mode rpc` against pi, so the
// compatibility front end can be read against Zi's own protocol.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { SseModelServer } from "./sse-model-server.mjs";
import { median } from "./stats.mjs";

const PI_VERSION = "0.73.1";

/** One child speaking JSONL on stdio; lines split on LF bytes. */
class LineChild {
  constructor(argv, env, cwd) {
    this.child = spawn(process.execPath, argv, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    this.waiters = [];
    this.stderr = "";
    let parts = [];
    this.child.stdout.on("data", (chunk) => {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        parts.push(chunk.subarray(start, nl));
        const line = Buffer.concat(parts).toString("utf8");
        parts = [];
        start = nl + 1;
        this.deliver(line);
      }
      if (start < chunk.length) parts.push(chunk.subarray(start));
    });
    this.child.stderr.on("data", (chunk) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
  }

  deliver(line) {
    const record = JSON.parse(line);
    const waiter = this.waiters[0];
    if (waiter && waiter.match(record)) {
      this.waiters.shift();
      waiter.resolve(record);
    }
  }

  /** Resolves with the first record `match` accepts, from now on. */
  next(match) {
    return new Promise((resolve, reject) => {
      this.waiters.push({ match, resolve });
      this.exited.then((code) => reject(new Error(`child exited (${code}) while waiting: ${this.stderr.slice(-500)}`)));
    });
  }

  write(record) {
    this.child.stdin.write(`${JSON.stringify(record)}\n`);
  }

  async close() {
    this.child.stdin.end();
    const code = await this.exited;
    if (code !== 0) throw new Error(`child exited with ${code}: ${this.stderr.slice(-500)}`);
  }
}

export async function measurePiRpc(report, { root, ziScript, reps, roundTrips, streamTokens }) {
  const piCli = resolve(root, "node_modules/@mariozechner/pi-coding-agent/dist/cli.js");
  if (!existsSync(piCli)) return report.skip(`pi-rpc: pi ${PI_VERSION}`, "the dev dependency @mariozechner/pi-coding-agent is not installed (npm ci)");
  const server = new SseModelServer(streamTokens);
  const baseUrl = await server.start();
  const home = mkdtempSync(join(tmpdir(), "zi-bench-pi-rpc-"));
  const provider = { baseUrl, api: "openai-completions", apiKey: "sk-bench", models: [{ id: "m", name: "m", contextWindow: 128_000, maxTokens: 16_384 }] };
  writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: provider } }));
  const env = { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home, PI_CODING_AGENT_DIR: home, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" };
  const model = ["--no-session", "--provider", "local", "--model", "m"];
  const kinds = {
    pi: { argv: [piCli, "--mode", "rpc", ...model], state: { id: "s", type: "get_state" }, isAnswer: (r) => r.type === "response" && r.id === "s" },
    zi: { argv: [ziScript, "--mode", "pi-rpc", ...model], state: { id: "s", type: "get_state" }, isAnswer: (r) => r.type === "response" && r.id === "s" },
    ziRpc: { argv: [ziScript, "--mode", "rpc", "--no-session"], state: { version: 1, id: "s", method: "session.get_state" }, isAnswer: (r) => r.type === "response" && r.id === "s" },
  };
  const start = (kind) => new LineChild(kinds[kind].argv, env, home);
  try {
    // Spawn to the response to a get_state written at spawn; the first round only warms the disk cache.
    const first = { pi: [], zi: [], ziRpc: [] };
    for (let rep = 0; rep <= reps; rep++) {
      for (const kind of Object.keys(first)) {
        const t = performance.now();
        const child = start(kind);
        const answered = child.next(kinds[kind].isAnswer);
        child.write(kinds[kind].state);
        await answered;
        const ms = performance.now() - t;
        await child.close();
        if (rep > 0) first[kind].push(ms);
      }
    }
    report.ratio({ name: `pi-rpc: first response, zi --mode pi-rpc vs pi ${PI_VERSION} --mode rpc`, unit: "ms", zi: median(first.zi), baseline: median(first.pi), better: "lower", target: 1, samples: first });
    report.ratio({ name: `pi-rpc: first response, zi --mode rpc vs pi ${PI_VERSION} --mode rpc (Zi's own protocol)`, unit: "ms", zi: median(first.ziRpc), baseline: median(first.pi), better: "lower", target: null, samples: first });

    // Sequential get_state (one in flight) and an 8k-token reply, on warm children.
    const trips = { pi: [], zi: [] };
    const streams = { pi: [], zi: [] };
    for (let rep = 0; rep < reps; rep++) {
      for (const kind of ["pi", "zi"]) {
        const child = start(kind);
        const warm = child.next(kinds[kind].isAnswer);
        child.write(kinds[kind].state);
        await warm;
        let t = performance.now();
        for (let i = 0; i < roundTrips; i++) {
          const answered = child.next((r) => r.type === "response" && r.id === `g${i}`);
          child.write({ id: `g${i}`, type: "get_state" });
          await answered;
        }
        trips[kind].push(performance.now() - t);
        const ended = child.next((r) => r.type === "agent_end");
        t = performance.now();
        child.write({ id: "p", type: "prompt", message: "stream" });
        const end = await ended;
        streams[kind].push(performance.now() - t);
        const text = end.messages.at(-1)?.content?.map((block) => block.text ?? "").join("") ?? "";
        if (text.length !== streamTokens * 4) throw new Error(`${kind}: the streamed reply has ${text.length} characters, not ${streamTokens * 4}`);
        await child.close();
      }
    }
    report.ratio({ name: `pi-rpc: ${roundTrips} sequential get_state, zi vs pi ${PI_VERSION}`, unit: "ms", zi: median(trips.zi), baseline: median(trips.pi), better: "lower", target: 1, samples: trips });
    report.ratio({ name: `pi-rpc: ${streamTokens}-token stream, prompt to agent_end, zi vs pi ${PI_VERSION}`, unit: "ms", zi: median(streams.zi), baseline: median(streams.pi), better: "lower", target: 1, samples: streams });
  } finally {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
