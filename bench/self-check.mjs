// Checks the benchmark's own reader before its numbers are trusted: frames split at every possible
// chunk boundary, U+2028 and multi-byte characters inside frames, a sequence gap, a missing final LF.
// Exits 1 on the first mismatch.   node bench/self-check.mjs
import assert from "node:assert/strict";
import { FrameReader } from "./lib/frame-reader.mjs";

function readAll(chunks) {
  const reader = new FrameReader();
  const seen = [];
  reader.handler = (line, sequence, type) => seen.push({ sequence, type, text: line.toString("utf8") });
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  return { reader, seen };
}

const frames = [
  '{"version":1,"sequence":1,"type":"ready","state":{}}',
  '{"version":1,"sequence":2,"type":"response","id":"a","method":"session.get_state","ok":true,"result":{"t":"line\u2028sep é 😀"}}',
  '{"version":1,"sequence":3,"type":"session_event","event":{"type":"message_update"}}',
  // Another key order takes the JSON.parse path and must be accepted all the same.
  '{"type":"protocol_error","sequence":4,"version":1,"id":null,"error":{"code":"parse_error","message":"x"},"fatal":false}',
];
const stream = Buffer.from(frames.map((frame) => `${frame}\n`).join(""));

for (let cut = 0; cut <= stream.length; cut++) {
  const { reader, seen } = readAll([stream.subarray(0, cut), stream.subarray(cut)]);
  assert.equal(reader.failure, null, `cut at ${cut}: ${reader.failure?.message}`);
  assert.deepEqual(seen.map((frame) => frame.sequence), [1, 2, 3, 4], `cut at ${cut}`);
  assert.deepEqual(seen.map((frame) => frame.type), ["ready", "response", "session_event", "protocol_error"]);
  assert.equal(seen[1].text, frames[1]);
}
const bytewise = readAll([...stream].map((byte) => Buffer.from([byte])));
assert.equal(bytewise.seen.length, 4);

const gap = readAll([Buffer.from(`${frames[0]}\n${frames[2]}\n`)]);
assert.match(gap.reader.failure?.message ?? "", /sequence gap: expected 2, got 3/);
assert.equal(gap.seen.length, 1, "nothing after a gap is delivered");

const cutShort = readAll([Buffer.from(`${frames[0]}\n${frames[1]}`)]);
assert.match(cutShort.reader.failure?.message ?? "", /ended inside a frame/);

const notFrame = readAll([Buffer.from("hello\n")]);
assert.match(notFrame.reader.failure?.message ?? "", /not a protocol frame/);

process.stdout.write("bench self-check: ok\n");
