// A client that stops reading Zi's stdout in the middle of a long one-token-delta reply, then reads
// everything: the driver behind the stalled-reader benchmark row (and a standalone probe:
// `node bench/lib/stalled-reader.mjs [textMiB] [pauseMs] [--max-old-space-size=N]`).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FrameReader } from "./frame-reader.mjs";
import { ProcMemory } from "./proc-memory.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SAMPLE_MS = 100;
const IDLE_SETTLE_MS = 300;

/**
 * Streams `textBytes` of text as one-token (4-character) deltas from `faux/scripted` unpaced,
 * pauses reading for `pauseMs` once the reply has started, then drains. Resolves with
 * { idleMiB, peakMiB, textBytes, deltaFrames, rebuiltMatches, exit }.
 */
export async function runStalledReader({ textBytes, pauseMs, nodeArgs = [], ziScript = join(ROOT, "dist/bin/zi.js") }) {
  const home = mkdtempSync(join(tmpdir(), "zi-stalled-"));
  const text = "abcdefghijklmnopqrstuvwxyz0123456789 ".repeat(Math.ceil(textBytes / 37)).slice(0, textBytes);
  const script = join(home, "script.json");
  writeFileSync(script, JSON.stringify({ responses: [{ text, tokensPerSecond: 1_000_000 }] }));
  const child = spawn(process.execPath, [...nodeArgs, ziScript, "--mode", "rpc", "--no-session", "--faux-script", script], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  const memory = new ProcMemory(child.pid);
  const reader = new FrameReader();
  const deltas = [];
  let finalText;
  let deltaFrames = 0;
  let watcher = null;
  reader.handler = (line, _sequence, type) => {
    if (type === "session_event") {
      const event = JSON.parse(line.toString("utf8")).event;
      if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
        deltas.push(event.assistantMessageEvent.delta);
        deltaFrames++;
      } else if (event.type === "message_end" && event.message.role === "assistant") {
        finalText = event.message.content.filter((block) => block.type === "text").map((block) => block.text).join("");
      }
    }
    if (watcher && watcher(line, type)) watcher = null;
  };
  const until = (predicate) => new Promise((resolve) => (watcher = (line, type) => predicate(line, type) && (resolve(), true)));
  child.stdout.on("data", (chunk) => reader.push(chunk));
  const send = (record) => child.stdin.write(`${JSON.stringify({ version: 1, ...record })}\n`);
  try {
    await until((_line, type) => type === "ready");
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
    const idleMiB = memory.read().rssMiB;
    let answered = until((line, type) => type === "response" && line.includes('"id":"m"'));
    send({ id: "m", method: "model.select", params: { provider: "faux", id: "scripted" } });
    await answered;
    answered = until((line) => line.includes('"type":"message_update"'));
    send({ id: "p", method: "session.prompt", params: { delivery: "direct", text: "go", completionId: "c" } });
    send({ id: "w", method: "session.await_idle", params: { completionId: "c" } });
    await answered;
    child.stdout.pause();
    let peakMiB = memory.read().rssMiB;
    const sampler = setInterval(() => {
      try {
        peakMiB = Math.max(peakMiB, memory.read().rssMiB);
      } catch {
        // exited
      }
    }, SAMPLE_MS);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    clearInterval(sampler);
    peakMiB = Math.max(peakMiB, memory.read().rssMiB);
    const done = until((line, type) => type === "response" && line.includes('"id":"w"'));
    child.stdout.resume();
    await done;
    child.stdin.end();
    const exit = await exited;
    const rebuilt = deltas.join("");
    return { idleMiB, peakMiB, textBytes, deltaFrames, rebuiltMatches: rebuilt === text && finalText === text, exit, stderr };
  } finally {
    child.kill("SIGKILL");
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mib = "8", pause = "10000", ...nodeArgs] = process.argv.slice(2);
  const started = Date.now();
  const result = await runStalledReader({ textBytes: Number(mib) * 1024 * 1024, pauseMs: Number(pause), nodeArgs });
  console.log(JSON.stringify({ ...result, stderr: result.stderr.slice(-500), ms: Date.now() - started }, null, 1));
}
