// An ACP agent driven by the official ACP SDK as an editor (Zed) drives it: spawn → `initialize` →
// `session/new` → `session/prompt`, timed to the first `agent_message_chunk`; then, after the user's
// pause, later sessions in the same process, each from `session/new` to its first chunk. The acp bench
// rows (acp-first-reply.measure.mjs) and bench/acp-probe.mjs both time this run.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { Readable, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import * as acp from "@agentclientprotocol/sdk";
import { cpuMs } from "./proc-cpu.mjs";

/** The editor's user reads the answer, then opens another session and types. */
export const USER_PAUSE_MS = 300;
export const LATER_SESSIONS = 3;

/** How long an agent may take to exit once its stdin is closed before it is killed (Codex's does not). */
const EXIT_GRACE_MS = 3000;

/**
 * Runs `command` in `project` and answers when each step happened (performance.now()): `spawned`,
 * `initialized`, and per session (the first, then `later` more) `started` (session/new sent), `created`
 * (answered) and `chunk` (its first agent_message_chunk). `sample(pid)`, when given, is read at each of
 * those steps but `spawned`, after its time is taken (the probe reads the main thread's CPU time there);
 * `cpuAtFirstChunk` is the agent's CPU time (user+sys) at the first chunk. The agent's stderr is kept
 * for the error of a failed run, or passed through with `stderr: "inherit"`.
 */
export async function zedLikeRun({ command, args, env, stderr = "pipe" }, project, { later = LATER_SESSIONS, sample } = {}) {
  const step = () => ({ at: performance.now(), sample: sample?.(child.pid) });
  const spawned = { at: performance.now() };
  const child = spawn(command, args, { cwd: project, env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["pipe", "pipe", stderr] });
  let tail = "";
  child.stderr?.on("data", (chunk) => (tail = (tail + chunk).slice(-4096)));
  const chunks = new Map();
  let cpuAtFirstChunk;
  const app = acp.client({ name: "zi-bench" }).onNotification("session/update", ({ params }) => {
    if (params.update.sessionUpdate === "agent_message_chunk" && !chunks.has(params.sessionId)) {
      chunks.set(params.sessionId, step());
      if (chunks.size === 1) cpuAtFirstChunk = cpuMs(child.pid);
    }
  });
  const agent = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout))).agent;
  const session = async (started) => {
    const { sessionId } = await agent.request("session/new", { cwd: project, mcpServers: [] });
    const created = step();
    await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
    if (!chunks.has(sessionId)) throw new Error(`session ${sessionId} answered its prompt without an agent_message_chunk`);
    return { started, created, chunk: chunks.get(sessionId) };
  };
  try {
    await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const initialized = step();
    const first = await session(initialized);
    await sleep(USER_PAUSE_MS);
    const sessions = [first];
    for (let i = 0; i < later; i++) sessions.push(await session(step()));
    return { spawned, initialized, sessions, cpuAtFirstChunk };
  } catch (error) {
    throw new Error(`acp bench: ${error.message ?? JSON.stringify(error)}\n${tail}`);
  } finally {
    // An editor closes the agent's stdin; an agent that does not exit on that is killed.
    const exited = new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", resolve)));
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), EXIT_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}
