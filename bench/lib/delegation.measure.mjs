// 8. Delegation: the `delegate` tool's children against plain prompts on the same offline models, in
// one Zi. (a) Spawning and finishing one echo child (the `durationMs` of its `subagent` end entry:
// session, journal, tools, model, the run, disposal) against one plain `faux/echo` prompt as the
// client sees it; and, informational, the whole delegating prompt (three model calls: the delegate
// call, the child's echo, the parent's closing reply) against the same.
// (b) 4 children in parallel against the same 4 as a chain (one after the other), each child's model
// call delayed 500 ms: the wall-clock benefit of running children at once.
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { BenchChildren } from "./bench-children.mjs";
import { FrameType } from "./frame-reader.mjs";
import { median } from "./stats.mjs";

const CHILD_DELAY_MS = 500;

/** The parent's and children's scripted replies for every repetition, in the order they are consumed. */
function script(reps) {
  const responses = [];
  const workers = (tasks) => tasks.map((task) => ({ profile: "worker", task }));
  const four = ["one", "two", "three", "four"];
  for (let rep = 0; rep < reps + 1; rep++) {
    responses.push({ toolCalls: [{ name: "delegate", arguments: { profile: "explore", task: `echo ${rep}` } }] }, { text: "done" });
    responses.push({ toolCalls: [{ name: "delegate", arguments: { tasks: workers(four) } }] }, { text: "done" });
    responses.push({ toolCalls: [{ name: "delegate", arguments: { chain: workers(four) } }] }, { text: "done" });
    // The explore child of the first row takes no scripted step (it echoes); the 8 delayed workers do.
    for (let i = 0; i < 8; i++) responses.push({ profile: "worker", delayMs: CHILD_DELAY_MS, text: `child ${i}` });
  }
  return { responses };
}

async function timedPrompt(zi, name, text) {
  const start = performance.now();
  const prompt = await zi.request("session.prompt", { delivery: "direct", text, completionId: name });
  if (!prompt.ok) throw new Error(`${name}: prompt refused: ${JSON.stringify(prompt.error)}`);
  const idle = await zi.request("session.await_idle", { completionId: name });
  const ms = performance.now() - start;
  if (!idle.ok || !idle.result.completion) throw new Error(`${name}: no completion: ${JSON.stringify(idle)}`);
  return { ms, text: idle.result.completion.text };
}

async function select(zi, id) {
  const answer = await zi.request("model.select", { provider: "faux", id });
  if (!answer.ok) throw new Error(`model.select faux/${id} failed: ${JSON.stringify(answer.error)}`);
}

export async function measureDelegation(children, report, { reps }) {
  const scriptFile = children.file("delegation-script.json");
  writeFileSync(scriptFile, JSON.stringify(script(reps)));
  const zi = await BenchChildren.started(children.spawnZi("zi (delegation)", { ZI_FAUX_SCRIPT: scriptFile }));
  const samples = { child: [], echo: [], parallel: [], sequential: [], childOnly: [] };
  // The end entry of the single explore child: how long the child itself took, spawn to finish.
  let childMs;
  zi.tap = (line, _sequence, type) => {
    if (type !== FrameType.sessionEvent || !line.includes('"subagent"')) return;
    const { event } = JSON.parse(line.toString("utf8"));
    if (event.type === "entry_appended" && event.entry.data.phase === "end" && event.entry.data.profile === "explore") childMs = event.entry.data.durationMs;
  };
  // Round 0 warms up (pi-ai loaded, code paths compiled) and is discarded.
  for (let round = 0; round <= reps; round++) {
    await select(zi, "echo");
    const echo = await timedPrompt(zi, `echo-${round}`, `hello ${round}`);
    await select(zi, "scripted");
    const child = await timedPrompt(zi, `child-${round}`, "delegate one");
    const parallel = await timedPrompt(zi, `parallel-${round}`, "delegate four at once");
    const sequential = await timedPrompt(zi, `sequential-${round}`, "delegate four in a chain");
    for (const [name, answer] of [["echo", echo], ["child", child], ["parallel", parallel], ["sequential", sequential]]) {
      const expected = name === "echo" ? `Echo: hello ${round}` : "done";
      if (answer.text !== expected) throw new Error(`delegation ${name}: completion ${JSON.stringify(answer.text)}, expected ${JSON.stringify(expected)}`);
      if (round > 0) samples[name].push(answer.ms);
    }
    if (childMs === undefined) throw new Error("delegation: no end entry for the explore child");
    if (round > 0) samples.childOnly.push(childMs);
    childMs = undefined;
  }
  await zi.close();
  report.ratio({
    name: "delegation: one echo child, spawn to finish, vs one echo prompt",
    unit: "ms",
    zi: median(samples.childOnly),
    baseline: median(samples.echo),
    better: "lower",
    target: 3,
    samples: { zi: samples.childOnly, baseline: samples.echo },
  });
  report.ratio({
    name: "delegation: whole delegating prompt (3 model calls) vs one echo prompt",
    unit: "ms",
    zi: median(samples.child),
    baseline: median(samples.echo),
    better: "lower",
    target: null,
    samples: { zi: samples.child, baseline: samples.echo },
  });
  report.ratio({
    name: `delegation: 4 parallel vs 4 sequential children (${CHILD_DELAY_MS} ms model delay)`,
    unit: "ms",
    zi: median(samples.parallel),
    baseline: median(samples.sequential),
    better: "lower",
    target: 0.5,
    samples: { zi: samples.parallel, baseline: samples.sequential },
  });
}
