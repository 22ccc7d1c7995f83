// Drives `session.get_state` traffic the same way for Zi and the echo child, and checks every answer
// is the successful response to the request it belongs to. Requests are built before the clock starts.
import { performance } from "node:perf_hooks";
import { FrameType, preview } from "./frame-reader.mjs";

const OK_TRUE = Buffer.from('"ok":true');
// Answers are all checked for id and success by byte search; every SAMPLE_EVERY-th is also parsed whole.
const SAMPLE_EVERY = 997;

function requestLine(id) {
  return `{"version":1,"id":${JSON.stringify(id)},"method":"session.get_state"}\n`;
}

function idNeedle(id) {
  return Buffer.from(`"id":${JSON.stringify(id)},`);
}

function check(child, line, type, prefix, index, needle, parse) {
  const answered = type === FrameType.response && line.indexOf(needle) !== -1 && line.indexOf(OK_TRUE) !== -1;
  if (answered && !parse) return;
  const id = `${prefix}${index}`;
  if (!answered) throw new Error(`${child.label}: expected the successful response to ${id}, got ${preview(line)}`);
  const frame = JSON.parse(line.toString("utf8"));
  if (frame.id !== id || frame.ok !== true || frame.method !== "session.get_state" || typeof frame.result !== "object") {
    throw new Error(`${child.label}: malformed response to ${id}: ${preview(line)}`);
  }
}

/**
 * Sends one request, waits for its response, sends the next. Resolves with the elapsed ms; with
 * `latencies` (a Float64Array of count), also fills in each round trip's ms.
 */
export async function roundTrips(child, count, prefix, latencies) {
  const requests = [];
  const needles = [];
  for (let i = 0; i < count; i++) {
    requests.push(Buffer.from(requestLine(`${prefix}${i}`)));
    needles.push(idNeedle(`${prefix}${i}`));
  }
  let i = 0;
  let sentAt = 0;
  const done = child.wait((line, sequence, type) => {
    check(child, line, type, prefix, i, needles[i], i % SAMPLE_EVERY === 0 || i === count - 1);
    if (latencies) {
      const now = performance.now();
      latencies[i] = now - sentAt;
      sentAt = now;
    }
    if (++i === count) return true;
    child.send(requests[i]);
    return false;
  });
  const start = performance.now();
  sentAt = start;
  child.send(requests[0]);
  await done;
  return performance.now() - start;
}

/** The requests of one flood as a single buffer (so the timed part is one write), and their id needles. */
export function floodRequests(count, prefix) {
  const lines = [];
  const needles = [];
  for (let i = 0; i < count; i++) {
    lines.push(requestLine(`${prefix}${i}`));
    needles.push(idNeedle(`${prefix}${i}`));
  }
  return { prefix, count, buffer: Buffer.from(lines.join("")), needles };
}

/** Writes every request of floodRequests() at once and resolves with the ms until the last response is read. */
export async function flood(child, { prefix, count, buffer, needles }) {
  let i = 0;
  const done = child.wait((line, sequence, type) => {
    // get_state never waits, so responses come in request order (docs/protocol.md, admission).
    check(child, line, type, prefix, i, needles[i], i % SAMPLE_EVERY === 0 || i === count - 1);
    return ++i === count;
  });
  const start = performance.now();
  child.send(buffer);
  await done;
  return performance.now() - start;
}
