// The task suite (bench/tasks/, Harbor / Terminal-Bench layout): each task's oracle replayed through
// Zi's own tools. The scripted model (faux/scripted) makes the tool calls of the task's
// solution/zi-steps.json in a fresh copy of environment/workspace, then tests/test.sh decides (it writes
// the reward, 1 or 0). Harbor's own oracle (solution/solve.sh in the same copy) runs too, as the
// baseline and as a check that the task itself is sound. Resume integrity: the same replay is SIGKILLed
// after half its tool calls, resumed from its journal (--session), finished, and tested again.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const TASKS_DIR = join(ROOT, "bench/tasks");
const MCP_EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FINAL = { text: "Task complete." };
const PAUSE_MS = 600_000;

export function listTasks() {
  return readdirSync(TASKS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(TASKS_DIR, entry.name, "task.toml")))
    .map((entry) => entry.name)
    .sort();
}

/** Runs the named tasks (all by default); resolves to one record per task. */
export async function runTaskSuite({ ziScript = join(ROOT, "dist/bin/zi.js"), only = listTasks(), resume = true } = {}) {
  const records = [];
  for (const name of only) records.push(await runTask(name, ziScript, resume));
  return records;
}

async function runTask(name, ziScript, resume) {
  const dir = join(TASKS_DIR, name);
  const replay = JSON.parse(readFileSync(join(dir, "solution/zi-steps.json"), "utf8"));
  const instruction = readFileSync(join(dir, "instruction.md"), "utf8");
  const record = { task: name, passed: false, oraclePassed: false, unsolvedFails: false, toolErrors: 0, toolCalls: 0, ziMs: 0, oracleMs: 0, resume: null, problems: [] };

  // The tests must fail on the untouched workspace, or they prove nothing.
  const untouched = await prepare(dir, replay);
  record.unsolvedFails = !(await verify(dir, untouched));
  untouched.dispose();

  const oracle = await prepare(dir, replay);
  const t0 = performance.now();
  const solved = await run("bash", [join(dir, "solution/solve.sh")], { cwd: oracle.work, env: oracle.env });
  record.oracleMs = performance.now() - t0;
  record.oraclePassed = solved.code === 0 && (await verify(dir, oracle));
  oracle.dispose();

  const zi = await prepare(dir, replay);
  const t1 = performance.now();
  const first = await runZi(ziScript, zi, [...replay.steps, FINAL], instruction, []);
  record.ziMs = performance.now() - t1;
  record.toolCalls = first.toolEnds.length;
  record.toolErrors = first.toolEnds.filter((end) => end.isError).length;
  if (first.code !== 0) record.problems.push(`zi exited ${first.code}: ${first.stderr.trim().split("\n").at(-1)}`);
  record.passed = first.code === 0 && first.result?.status === "completed" && (await verify(dir, zi));
  zi.dispose();

  if (resume) record.resume = await resumeCheck(dir, replay, instruction, ziScript, record);
  return record;
}

/** SIGKILL after half the top-level tool calls (while the next model call waits), resume the journal, finish. */
async function resumeCheck(dir, replay, instruction, ziScript, record) {
  const top = replay.steps.map((step, index) => ({ step, index })).filter(({ step }) => step.toolCalls && step.profile === undefined);
  const cut = top[Math.max(0, Math.floor(top.length / 2) - 1)];
  const next = replay.steps[cut.index + 1];
  if (next !== undefined && next.profile !== undefined) return { skipped: "the step after the cut belongs to a child" };
  const killAfter = top.indexOf(cut) + 1;
  const context = await prepare(dir, replay);
  try {
    const steps = replay.steps.map((step, index) => (index === cut.index + 1 ? { ...step, delayMs: PAUSE_MS } : step));
    const withPause = next === undefined ? [...steps, { ...FINAL, delayMs: PAUSE_MS }] : [...steps, FINAL];
    const killed = await runZi(ziScript, context, withPause, instruction, [], killAfter);
    if (killed.signal !== "SIGKILL") return { passed: false, problem: `the first process was not killed mid-task (exit ${killed.code})` };
    const sessions = join(context.home, "sessions");
    const journal = readdirSync(sessions).find((file) => file.endsWith(".jsonl"));
    const finished = await runZi(ziScript, context, [...replay.steps.slice(cut.index + 1), FINAL], "Continue the task where you left off.", ["--session", join(sessions, journal)]);
    // The resumed session's usage counts the killed process's tool calls too: nothing was lost.
    const kept = finished.result?.usage?.session?.toolCalls === record.toolCalls;
    const passed = finished.code === 0 && kept && (await verify(dir, context));
    return { passed, killedAfterToolCalls: killAfter, journalKeptToolCalls: kept, damaged: /damaged/.test(finished.stderr) };
  } finally {
    context.dispose();
  }
}

/** A fresh copy of the task's workspace and a ZI_HOME beside it (with the MCP servers the replay names). */
async function prepare(dir, replay) {
  const base = mkdtempSync(join(tmpdir(), "zi-task-"));
  const work = join(base, "app");
  const home = join(base, "zi-home");
  cpSync(join(dir, "environment/workspace"), work, { recursive: true });
  mkdirSync(home);
  const env = { PATH: process.env.PATH ?? "", HOME: base, ZI_HOME: home, APP_DIR: work, REWARD_FILE: join(base, "reward.txt") };
  // What the task's Dockerfile runs after copying the workspace (a generated tree, for instance).
  if (existsSync(join(dir, "environment/setup.sh"))) await run("bash", [join(dir, "environment/setup.sh")], { cwd: work, env });
  if (replay.mcp?.includes("everything")) {
    writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [MCP_EVERYTHING, "stdio"] } } }));
  }
  return { base, work, home, env, dispose: () => rmSync(base, { recursive: true, force: true }) };
}

async function verify(dir, context) {
  const tested = await run("bash", [join(dir, "tests/test.sh")], { cwd: context.work, env: context.env });
  const reward = existsSync(context.env.REWARD_FILE) ? readFileSync(context.env.REWARD_FILE, "utf8").trim() : "";
  rmSync(context.env.REWARD_FILE, { force: true });
  return tested.code === 0 && reward === "1";
}

/** One `zi --mode json` over the steps; with killAfter, SIGKILLed once that many turns have ended. */
function runZi(ziScript, context, steps, prompt, extra, killAfter) {
  const script = join(context.base, `script-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(script, JSON.stringify({ responses: steps }));
  const args = [ziScript, "--mode", "json", "--model", "faux/scripted", "--faux-script", script, ...extra, prompt];
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, args, { cwd: context.work, env: context.env });
    const toolEnds = [];
    let turns = 0;
    let result;
    let stderr = "";
    let pending = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", (chunk) => {
      pending += chunk;
      let newline;
      while ((newline = pending.indexOf("\n")) >= 0) {
        const event = JSON.parse(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        if (event.type === "tool_execution_end") toolEnds.push(event);
        if (event.type === "result") result = event;
        // At the turn's end its tool results are journaled (and synced): the next model call waits (delayMs).
        if (event.type === "turn_end") turns++;
        if (killAfter !== undefined && event.type === "turn_end" && turns === killAfter) child.kill("SIGKILL");
      }
    });
    child.on("close", (code, signal) => resolvePromise({ code, signal, toolEnds, result, stderr }));
  });
}

function run(command, args, { cwd, env }) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolvePromise({ code, output }));
  });
}
