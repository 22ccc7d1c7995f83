// 1b. What a client waits for after spawning: the requests are written at spawn (before `ready` has been
// read, as a client that does not wait for it does), and timed from spawn to
//   - the response to `session.get_state` (the first response),
//   - the response to `model.select` of `faux/echo` (the client's first real act),
//   - the first `message_update` delta of a `faux/echo` prompt written after that select (the whole
//     "hello world" of a client: select, prompt, first streamed token).
// The baseline is the echo child spawned the same way with the same lines, timed to its answer to the
// same request line (to the prompt, for the delta): the least any Node JSONL server can take to answer.
// Every child must still write `ready` first (RpcChild fails the run otherwise). Each row's details also
// give both children's CPU time up to that answer (/proc), which the machine's other load does not inflate.
// The targets are issue 26's (the first delta's is issue 11's).
import { performance } from "node:perf_hooks";
import { FrameType, preview } from "./frame-reader.mjs";
import { cpuDetails, cpuMs, cpuRow } from "./proc-cpu.mjs";
import { median } from "./stats.mjs";

const request = (id, method, params) => `${JSON.stringify(params === undefined ? { version: 1, id, method } : { version: 1, id, method, params })}\n`;
const SELECT = request("select", "model.select", { provider: "faux", id: "echo" });
const PROMPT_TEXT = "hello world";

const SCENARIOS = [
  {
    name: "first response: spawn to session.get_state answered",
    target: 1.5,
    lines: [request("state", "session.get_state")],
    answers: ["state"],
    timedId: "state",
  },
  {
    name: "first model.select: spawn to faux/echo selected",
    target: 1.8,
    lines: [SELECT],
    answers: ["select"],
    timedId: "select",
  },
  {
    name: "first delta: spawn to faux/echo's first message_update",
    target: 3,
    lines: [
      SELECT,
      request("prompt", "session.prompt", { delivery: "direct", text: PROMPT_TEXT, completionId: "hello" }),
      request("idle", "session.await_idle", { completionId: "hello" }),
    ],
    answers: ["select", "prompt", "idle"],
    timedId: "prompt",
    delta: true,
  },
];

/**
 * Reads until every expected answer is in; returns ms from spawn to the timed answer (or, for Zi in the
 * delta scenario, to the first text delta) and to `ready`. Every answer must be a success.
 */
async function timeScenario(child, scenario, isZi) {
  const pending = new Set(scenario.answers);
  let timedAt = 0;
  let cpuAt;
  const done = child.waitAfterReady((line, sequence, type) => {
    if (type === FrameType.sessionEvent) {
      if (!scenario.delta || !isZi || timedAt !== 0) return false;
      const { event } = JSON.parse(line.toString("utf8"));
      if (event.type !== "message_update") return false;
      const { type: deltaType, delta } = event.assistantMessageEvent;
      if (deltaType !== "text_delta" || typeof delta !== "string" || delta.length === 0) throw new Error(`${child.label}: unexpected first delta ${preview(line)}`);
      timedAt = performance.now();
      cpuAt = cpuMs(child.pid);
      return false;
    }
    if (type !== FrameType.response) throw new Error(`${child.label}: unexpected frame ${preview(line)}`);
    const frame = JSON.parse(line.toString("utf8"));
    if (!pending.delete(frame.id) || frame.ok !== true) throw new Error(`${child.label}: unexpected answer ${preview(line)}`);
    if (frame.id === scenario.timedId && !(scenario.delta && isZi)) {
      timedAt = performance.now();
      cpuAt = cpuMs(child.pid);
    }
    return pending.size === 0;
  });
  child.send(scenario.lines.join(""));
  await done;
  if (timedAt === 0) throw new Error(`${child.label}: no message_update delta before the prompt completed`);
  return { ms: timedAt - child.spawnedAt, readyMs: child.firstFrameAt - child.spawnedAt, cpuMs: cpuAt };
}

/** suffix: appended to every row's name (the second Node's rows: bench/lib/second-node.mjs). */
export async function measureFirstResponses(children, report, { reps, suffix = "" }) {
  for (const scenario of SCENARIOS) {
    const samples = { zi: [], baseline: [] };
    const cpu = { zi: [], baseline: [] };
    const readyMs = [];
    // Round 0 warms the disk cache and is discarded; the order alternates so neither side always goes first.
    for (let round = 0; round <= reps; round++) {
      const order = round % 2 === 0 ? ["zi", "baseline"] : ["baseline", "zi"];
      for (const side of order) {
        const isZi = side === "zi";
        const child = isZi ? children.spawnZi("zi (first response)") : children.spawnEcho("echo (first response)", 64);
        let timed;
        try {
          timed = await timeScenario(child, scenario, isZi);
        } catch (error) {
          child.kill();
          throw error;
        }
        await child.close();
        if (round === 0) continue;
        samples[side].push(timed.ms);
        if (timed.cpuMs !== undefined) cpu[side].push(timed.cpuMs);
        if (isZi) readyMs.push(timed.readyMs);
      }
    }
    report.ratio({
      name: `${scenario.name}${suffix}`,
      unit: "ms",
      zi: median(samples.zi),
      baseline: median(samples.baseline),
      better: "lower",
      target: scenario.target,
      samples,
      details: { ziReadyMs: readyMs, lines: scenario.lines.length, ...cpuDetails(cpu) },
    });
    cpuRow(report, `${scenario.name} (CPU time)${suffix}`, cpu);
  }
}
