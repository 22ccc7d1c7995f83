// Measures how long `zi --mode rpc` takes to exit after stdin EOF, a signal or fatal framing, in each
// session state of issue 9, and prints a Markdown table (the one in docs/protocol.md). Each figure is
// one run: evidence for the documented bounds, not a gate (the tests assert the causal facts).
//   node bench/shutdown-times.mjs [--zi dist/bin/zi.js]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ZI = resolve(process.argv.includes("--zi") ? process.argv[process.argv.indexOf("--zi") + 1] : join(ROOT, "dist/bin/zi.js"));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** How long a tool child may take to die once Zi has exited before it counts as a survivor. */
const SURVIVOR_MS = 2000;

/** Whether `pid` is gone (or a zombie, dead but not yet reaped) within SURVIVOR_MS of now. */
async function ended(pid) {
  const deadline = performance.now() + SURVIVOR_MS;
  for (;;) {
    let state;
    try {
      state = readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[2];
    } catch {
      return true;
    }
    if (state === "Z") return true;
    if (performance.now() > deadline) return false;
    await sleep(10);
  }
}

const HANG_EXTENSION = 'export default (zi) => { zi.registerCommand("hang", { handler: () => new Promise(() => {}) }); zi.registerTool({ name: "hang", description: "never returns", parameters: { type: "object" }, execute: () => new Promise(() => {}) }); };\n';
const SLOW_EXTENSION = "export default async () => { await new Promise((r) => setTimeout(r, 7000)); };\n";

/** The faux script's turn under way: its model selected, a prompt sent and awaited (answered when it ends). */
async function prompting(zi) {
  await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
  zi.request("p", "session.prompt", { delivery: "direct", text: "go" });
  zi.request("w", "session.await_idle", {});
}

const STATES = {
  idle: { prepare: async () => {} },
  "streaming run": {
    script: { responses: [{ text: "x".repeat(1 << 20), tokensPerSecond: 2000 }] },
    prepare: async (zi) => {
      await prompting(zi);
      await zi.until((line) => line.includes('"message_update"'));
    },
  },
  "stalled reader": {
    script: { responses: [{ text: "abcd".repeat(2 << 20), tokensPerSecond: 1_000_000 }] },
    prepare: async (zi) => {
      await prompting(zi);
      await zi.until((line) => line.includes('"message_update"'));
      zi.child.stdout.pause();
      await sleep(1000);
    },
  },
  "hung tool": {
    extension: HANG_EXTENSION,
    script: { responses: [{ toolCalls: [{ name: "hang", arguments: {} }] }, { text: "never" }] },
    prepare: async (zi) => {
      await prompting(zi);
      await zi.until((line) => line.includes('"tool_execution_start"'));
    },
  },
  "bash child ignoring SIGTERM": {
    script: { responses: [{ toolCalls: [{ name: "bash", arguments: { command: `trap '' TERM; echo "ignoring TERM as $$"; sleep 120` } }] }, { text: "ok" }] },
    prepare: async (zi) => {
      await prompting(zi);
      // bash streams its output: once it names its pid it ignores SIGTERM, as the sleep it runs will.
      await zi.until((line) => {
        const said = line.includes('"tool_execution_update"') && /ignoring TERM as (\d+)/.exec(line);
        if (said) zi.toolPid = Number(said[1]);
        return Boolean(said);
      });
    },
  },
  "hung extension command": {
    extension: HANG_EXTENSION,
    prepare: async (zi) => {
      zi.request("c", "command.invoke", { name: "hang" });
      await zi.until((line) => line.includes('"activity_changed"') && line.includes('"running"'));
    },
  },
  "slow-loading extension (7 s), requests piped": {
    extension: SLOW_EXTENSION,
    noReady: true,
    prepare: async (zi) => {
      zi.request("s1", "session.get_state");
      zi.request("s2", "command.list");
    },
  },
};

const ENDINGS = {
  "stdin EOF": (zi) => zi.child.stdin.end(),
  SIGTERM: (zi) => zi.child.kill("SIGTERM"),
  "double SIGINT": (zi) => (zi.child.kill("SIGINT"), zi.child.kill("SIGINT")),
  "fatal framing": (zi) => zi.child.stdin.write(Buffer.from([0xff, 0x0a])),
};

function start(state) {
  const dir = mkdtempSync(join(tmpdir(), "zi-shutdown-"));
  const args = [ZI, "--mode", "rpc", "--no-session"];
  if (state.script) {
    writeFileSync(join(dir, "script.json"), JSON.stringify(state.script));
    args.push("--faux-script", join(dir, "script.json"));
  }
  if (state.extension) {
    writeFileSync(join(dir, "ext.mjs"), state.extension);
    args.push("--extension", join(dir, "ext.mjs"));
  }
  const child = spawn(process.execPath, args, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, ZI_HOME: dir } });
  child.stderr.resume();
  const lines = [];
  let carry = "";
  let watcher;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    const parts = (carry + chunk).split("\n");
    carry = parts.pop();
    for (const line of parts) {
      if (line.includes('"type":"response"') || line.includes('"type":"protocol_error"')) lines.push(line.slice(0, 300));
      if (watcher?.(line)) watcher = undefined;
    }
  });
  const exited = new Promise((r) => child.on("exit", (code) => r({ code, at: performance.now() })));
  const zi = {
    child,
    dir,
    answers: lines,
    until: (predicate) => new Promise((r) => (watcher = (line) => predicate(line) && (r(), true))),
    request: (id, method, params) => child.stdin.write(`${JSON.stringify(params ? { version: 1, id, method, params } : { version: 1, id, method })}\n`),
    call: async (id, method, params) => {
      const answered = zi.until((line) => line.includes(`"id":${JSON.stringify(id)}`));
      zi.request(id, method, params);
      await answered;
    },
    exited,
  };
  return zi;
}

const rows = [];
for (const [stateName, state] of Object.entries(STATES)) {
  for (const [endingName, ending] of Object.entries(ENDINGS)) {
    if (state.noReady && endingName !== "stdin EOF") continue;
    // While output is at its bound no further input is framed: invalid bytes then are never seen.
    if (stateName === "stalled reader" && endingName === "fatal framing") continue;
    const zi = start(state);
    if (!state.noReady) await zi.until((line) => line.includes('"type":"ready"'));
    await state.prepare(zi);
    const t0 = performance.now();
    ending(zi);
    const { code, at } = await zi.exited;
    const survivor = zi.toolPid !== undefined && !(await ended(zi.toolPid)) ? " (tool child survived!)" : "";
    if (survivor) process.kill(zi.toolPid, "SIGKILL");
    const ids = zi.answers.map((line) => /"id":("[^"]*"|null)/.exec(line)?.[1]).join(" ");
    rows.push(`| ${stateName} | ${endingName} | ${code} | ${Math.round(at - t0)} ms${survivor} | ${ids} |`);
    process.stderr.write(`${rows.at(-1)}\n`);
    rmSync(zi.dir, { recursive: true, force: true });
  }
}
process.stdout.write(["| state | ending | exit code | exit after | answered ids |", "| --- | --- | --- | --- | --- |", ...rows].join("\n") + "\n");
