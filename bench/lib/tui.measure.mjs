// 10. The interactive mode against pi 0.73.1's, each started the same way in tmux (100x30, a fresh
// config directory, one local OpenAI-compatible server for both): the time from spawn to an editable
// prompt on screen (the editor's two rules drawn), and the CPU time (user + system, from /proc) the
// process spends while an 8k-token answer streams in and is drawn, from Enter to its last line on
// screen. pi is installed on first use into the same cache as the search rows (not a dependency).
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { cpuMs } from "./proc-cpu.mjs";
import { piPackageDir, PI_VERSION } from "./search.measure.mjs";
import { median } from "./stats.mjs";

const END = "END-OF-ANSWER";
const POLL_MS = 5;
const DEADLINE_MS = 60_000;
/** Background work counts as done once the process has used no CPU for this long (ticks are 10 ms). */
const QUIET_MS = 300;
const QUIET_DEADLINE_MS = 5_000;

/** About `tokens` tokens of markdown (prose, lists, code), in one-token deltas, then the end marker. */
function answerDeltas(tokens) {
  const words = ["the", "session", "streams", "markdown", "while", "pi-tui", "redraws", "only", "changed", "lines"];
  const deltas = [];
  for (let i = 0; deltas.length < tokens; i++) {
    if (i % 120 === 0) deltas.push(`\n\n## Part ${i / 120 + 1}\n\n`);
    else if (i % 120 === 60) deltas.push("\n\n```js\nconst value = compute(", `${i}`, ");\nconsole.log(value);\n```\n\n");
    else if (i % 20 === 0) deltas.push("\n- ");
    else deltas.push(`${words[i % words.length]} `);
  }
  deltas.push(`\n\n${END}\n`);
  return deltas;
}

/** Chat completions as SSE: the same deltas for every request, as fast as the client reads them. */
function startServer(deltas) {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta, finish) =>
        `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.write(chunk({ role: "assistant", content: "" }, null));
      for (const text of deltas) response.write(chunk({ content: text }, null));
      response.write(chunk({}, "stop"));
      response.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const tmux = (socket, ...args) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
const quote = (text) => `'${String(text).replace(/'/g, "'\\''")}'`;
const editorDrawn = (screen) => screen.split("\n").filter((line) => /^─{50,}$/.test(line.trimEnd())).length >= 2;

/** The process's CPU time once it has stayed the same for QUIET_MS (or after QUIET_DEADLINE_MS). */
async function quiet(pid) {
  const deadline = Date.now() + QUIET_DEADLINE_MS;
  let last = cpuMs(pid);
  let since = Date.now();
  while (Date.now() - since < QUIET_MS && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = cpuMs(pid);
    if (now !== last) [last, since] = [now, Date.now()];
  }
  return last;
}

async function poll(socket, predicate) {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const screen = tmux(socket, "capture-pane", "-p");
    if (predicate(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`tui bench: timed out; the screen:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** One run: spawn in tmux, time to the editor, then CPU time over the streamed answer. */
async function once(name, command, env) {
  const socket = `zi-bench-tui-${process.pid}-${name}`;
  const line = `exec env -i ${Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)).join(" ")} ${command.map(quote).join(" ")}`;
  const start = performance.now();
  tmux(socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", line);
  try {
    await poll(socket, editorDrawn);
    const startupMs = performance.now() - start;
    const pid = Number(tmux(socket, "display-message", "-p", "#{pane_pid}").trim());
    // Settled first: whatever startup still does in the background (plugins, the provider's warm-up)
    // is not the answer's cost. Settled means the process used no CPU for QUIET_MS (bounded).
    const before = await quiet(pid);
    tmux(socket, "send-keys", "-l", "go");
    tmux(socket, "send-keys", "Enter");
    await poll(socket, (screen) => screen.includes(END));
    return { startupMs, renderCpuMs: cpuMs(pid) - before };
  } finally {
    try {
      tmux(socket, "kill-server");
    } catch {
      // gone already
    }
  }
}

export async function measureTui(report, { ziScript, reps, tokens }) {
  try {
    execFileSync("sh", ["-c", "command -v tmux"], { stdio: "ignore" });
  } catch {
    return report.skip("tui", "tmux is not installed");
  }
  let piDir;
  try {
    piDir = await piPackageDir();
  } catch (error) {
    return report.skip(`tui: pi ${PI_VERSION}`, `could not install @mariozechner/pi-coding-agent@${PI_VERSION}: ${error.message.split("\n")[0]}`);
  }
  const server = await startServer(answerDeltas(tokens));
  const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;
  const dir = mkdtempSync(join(tmpdir(), "zi-bench-tui-"));
  const provider = { baseUrl, api: "openai-completions", compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models: [{ id: "m", contextWindow: 200000, maxTokens: 32000 }] };
  // pi looks for fd (its @-completion) and would try to download it: a stand-in on PATH stops that.
  const bin = join(dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "fd"), "#!/bin/sh\nexit 0\n");
  chmodSync(join(bin, "fd"), 0o755);
  const contenders = {
    zi: () => {
      const home = mkdtempSync(join(dir, "zi-"));
      writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { bench: { ...provider, noAuth: true } } }));
      return once("zi", [process.execPath, ziScript, "--model", "bench/m", "--no-session"], { PATH: `${bin}:${process.env.PATH}`, HOME: home, ZI_HOME: home, TERM: "xterm-256color" });
    },
    pi: () => {
      const home = mkdtempSync(join(dir, "pi-"));
      writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { bench: { ...provider, apiKey: "bench" } } }));
      return once("pi", [process.execPath, join(piDir, "dist/cli.js"), "--model", "bench/m", "--no-session"], { PATH: `${bin}:${process.env.PATH}`, HOME: home, PI_CODING_AGENT_DIR: home, TERM: "xterm-256color" });
    },
  };
  const samples = { zi: [], pi: [] };
  try {
    // Alternated rep by rep after one warm-up each, so load hits both alike.
    for (let rep = -1; rep < reps; rep++) {
      for (const [name, run] of Object.entries(contenders)) {
        const result = await run();
        if (rep >= 0) samples[name].push(result);
      }
    }
  } finally {
    server.close();
  }
  const of = (name, key) => samples[name].map((sample) => sample[key]);
  report.ratio({ name: `tui: spawn to editable prompt vs pi ${PI_VERSION} (tmux 100x30)`, unit: "ms", zi: median(of("zi", "startupMs")), baseline: median(of("pi", "startupMs")), better: "lower", target: 0.5, samples: { zi: of("zi", "startupMs"), baseline: of("pi", "startupMs") } });
  report.ratio({ name: `tui: CPU to stream and draw a ${tokens}-token answer vs pi ${PI_VERSION}`, unit: "ms", zi: median(of("zi", "renderCpuMs")), baseline: median(of("pi", "renderCpuMs")), better: "lower", target: 0.5, samples: { zi: of("zi", "renderCpuMs"), baseline: of("pi", "renderCpuMs") } });
}
