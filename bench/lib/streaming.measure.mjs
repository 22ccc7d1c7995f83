// 6. Streaming: long prompts answered by `faux/echo`, each followed by session.await_idle. Zi's frames
// are recorded, then replay-child.mjs writes the very same bytes at the same points with no session in
// between; both are read and timed the same way. Also: bytes of message_update frames per streamed
// token against the bytes of the deltas themselves (linear streaming means a ratio near 1).
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { FrameType, preview } from "./frame-reader.mjs";
import { StreamRecorder } from "./stream-recorder.mjs";
import { BenchChildren } from "./bench-children.mjs";
import { median } from "./stats.mjs";

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"];
const BYTES_TARGET = 2;
const STEP_TIMEOUT_MS = 30_000;

/** Deterministic prose-like text of `bytes` ASCII bytes, in lines of about 80 characters. */
export function promptText(bytes, seed) {
  const parts = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const word = WORDS[(i * 7 + seed) % WORDS.length];
    const separator = i % 12 === 11 ? "\n" : " ";
    parts.push(word, separator);
    length += word.length + 1;
  }
  return parts.join("").slice(0, bytes);
}

const request = (id, method, params) => `${JSON.stringify({ version: 1, id, method, params })}\n`;

/**
 * The conversation: select the model, one small warm-up prompt, then the measured prompts. With
 * `replies` (the faux/scripted scenario) each measured prompt is short and its reply is the scripted
 * text; otherwise faux/echo answers with the prompt's own text. `text` is what the reply must end with.
 */
function conversation(prompts, textBytes, replies) {
  const model = replies ? "scripted" : "echo";
  const steps = [{ name: "select", lines: [request("select", "model.select", { provider: "faux", id: model })], finalId: "select" }];
  const prompt = (name, sent, text) => ({
    name,
    text,
    lines: [
      request(`${name}-prompt`, "session.prompt", { delivery: "direct", text: sent, completionId: name }),
      request(`${name}-idle`, "session.await_idle", { completionId: name }),
    ],
    finalId: `${name}-idle`,
  });
  const warmup = replies ? replies[0] : promptText(4096, 99);
  steps.push(prompt("warmup", replies ? "warm up" : warmup, warmup));
  for (let i = 0; i < prompts; i++) {
    const text = replies ? replies[i + 1] : promptText(textBytes, i);
    steps.push({ ...prompt(`p${i}`, replies ? `go ${i}` : text, text), measured: true });
  }
  return steps;
}

/** The faux script of the one-token-delta scenario: the warm-up reply, then one reply per prompt. */
function scriptedReplies(prompts, textBytes) {
  return [promptText(4096, 99), ...Array.from({ length: prompts }, (_, i) => promptText(textBytes, i))];
}

/** Sends one step's lines and reads until the answer to its last request; answers are parsed, events only counted. */
async function runStep(child, step, recorder) {
  let events = 0;
  const answers = [];
  const done = child.wait((line, sequence, type) => {
    if (type === FrameType.sessionEvent) {
      events++;
      return false;
    }
    if (type !== FrameType.response && type !== FrameType.protocolError) throw new Error(`${child.label}: unexpected frame ${preview(line)}`);
    const frame = JSON.parse(line.toString("utf8"));
    answers.push(frame);
    return frame.id === step.finalId;
  }, STEP_TIMEOUT_MS);
  recorder?.sent(step.lines.length);
  const start = performance.now();
  child.send(step.lines.join(""));
  await done;
  return { ms: performance.now() - start, events, answers };
}

function failedAnswer(answers, step) {
  const failed = answers.find((frame) => frame.type === "protocol_error" || frame.ok !== true);
  if (failed) return `${failed.id}: ${failed.error?.code ?? "?"}: ${failed.error?.message ?? ""}`;
  const completion = answers.at(-1).result?.completion;
  if (step.text !== undefined && completion?.stopReason !== "stop") return `${step.finalId}: completion ${JSON.stringify(completion)?.slice(0, 200)}`;
  return null;
}

/** Drives the whole conversation; returns null and the reason when Zi cannot stream yet. */
async function converse(child, steps, recorder) {
  const timed = { ms: 0, events: 0, frames: 0, bytes: 0 };
  for (const step of steps) {
    const frames = child.reader.frames;
    const bytes = child.reader.bytes;
    const result = await runStep(child, step, recorder);
    const failure = failedAnswer(result.answers, step);
    if (failure) return { skipped: failure };
    if (step.measured) {
      timed.ms += result.ms;
      timed.events += result.events;
      timed.frames += child.reader.frames - frames;
      timed.bytes += child.reader.bytes - bytes;
    }
  }
  return timed;
}

/** Over the measured steps' recorded frames: message_update bytes, the deltas they carry, bytes by frame kind. */
function streamCost(recorder, steps) {
  const cost = { updates: 0, updateBytes: 0, deltaBytes: 0, tokens: 0, totalBytes: 0, bytesByKind: {}, replyComplete: true };
  steps.forEach((step, index) => {
    if (!step.measured) return;
    let text = "";
    for (const line of recorder.segment(index + 1)) {
      const frame = JSON.parse(line.toString("utf8"));
      const kind = frame.type === FrameType.sessionEvent ? frame.event.type : frame.type;
      cost.bytesByKind[kind] = (cost.bytesByKind[kind] ?? 0) + line.length + 1;
      cost.totalBytes += line.length + 1;
      if (kind !== "message_update") continue;
      const { delta, type } = frame.event.assistantMessageEvent;
      cost.updates++;
      cost.updateBytes += line.length + 1;
      cost.deltaBytes += Buffer.byteLength(JSON.stringify(delta));
      cost.tokens += Math.ceil(delta.length / 4); // pi-ai's estimate: 4 characters per token
      if (type === "text_delta") text += delta;
    }
    if (!text.endsWith(step.text)) cost.replyComplete = false;
  });
  cost.totalBytesPerToken = cost.totalBytes / cost.tokens;
  return cost;
}

/**
 * `oneTokenDeltas`: faux/scripted streams each reply in one-token (4-character) deltas, unpaced, so the
 * figure is the session's cost per event rather than per prompt.
 */
export async function measureStreaming(children, report, { reps, prompts, textBytes, oneTokenDeltas = false }) {
  const samples = { zi: [], baseline: [] };
  const details = { prompts, textBytes, oneTokenDeltas, ziMsPerRep: [], replayMsPerRep: [], eventsPerRep: [], framesPerRep: [], bytesPerRep: [] };
  const replies = oneTokenDeltas ? scriptedReplies(prompts, textBytes) : undefined;
  let script;
  if (replies) {
    script = children.file("one-token-deltas.json");
    writeFileSync(script, JSON.stringify({ responses: replies.map((text) => ({ text, tokensPerSecond: 1e9 })) }));
  }
  const scenario = oneTokenDeltas ? `${prompts} x ${textBytes / 1024} KiB in one-token deltas` : `${prompts} x ${textBytes / 1024} KiB echo`;
  let cost;
  for (let rep = 0; rep < reps; rep++) {
    const steps = conversation(prompts, textBytes, replies);
    const recorder = new StreamRecorder();
    const zi = children.spawnZi("zi (streaming)", script ? { ZI_FAUX_SCRIPT: script } : {});
    zi.tap = recorder.tap;
    await BenchChildren.started(zi);
    const ziRun = await converse(zi, steps, recorder);
    recorder.closing();
    const ziClosed = await zi.close();
    if (ziRun.skipped) {
      report.skip(`streaming (${scenario})`, `session not ready (${ziRun.skipped})`);
      return;
    }
    if (ziRun.events === 0) throw new Error("zi: the measured prompts produced no session events");
    cost ??= streamCost(recorder, steps);

    const file = children.file(`recording-${rep}.json`);
    recorder.save(file);
    const replay = await BenchChildren.started(children.spawnReplay("replay (streaming)", file));
    const replayRun = await converse(replay, conversation(prompts, textBytes, replies));
    const replayClosed = await replay.close();
    if (replayRun.skipped || replayClosed.frames !== ziClosed.frames || replayRun.events !== ziRun.events) {
      throw new Error(`replay diverged from the recording: ${JSON.stringify({ ziClosed, replayClosed, skipped: replayRun.skipped })}`);
    }
    samples.zi.push((ziRun.events * 1000) / ziRun.ms);
    samples.baseline.push((replayRun.events * 1000) / replayRun.ms);
    details.ziMsPerRep.push(ziRun.ms);
    details.replayMsPerRep.push(replayRun.ms);
    details.eventsPerRep.push(ziRun.events);
    details.framesPerRep.push(ziRun.frames);
    details.bytesPerRep.push(ziRun.bytes);
  }
  report.ratio({
    name: `streaming: session events/s (${scenario})`,
    unit: "/s",
    zi: median(samples.zi),
    baseline: median(samples.baseline),
    better: "higher",
    target: null,
    samples,
    details,
  });
  if (oneTokenDeltas) return;
  report.ratio({
    name: "streaming: message_update bytes per token",
    unit: "B",
    zi: cost.updateBytes / cost.tokens,
    baseline: cost.deltaBytes / cost.tokens,
    better: "lower",
    target: BYTES_TARGET,
    details: cost,
  });
  if (cost.bytesByKind.compaction_start) report.notes.push("streaming: Zi compacted during the measured prompts; use shorter prompts to measure streaming alone");
  if (!cost.replyComplete) report.notes.push("streaming: the text deltas of a measured prompt did not end with the prompt's text (echo reply incomplete?)");
}
