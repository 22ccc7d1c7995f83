// The baseline for streaming: replays frames recorded from Zi, byte for byte, with no session in
// between. A recording is a list of segments; a segment is written, as fast as one write allows, once
// its number of input lines has arrived (`afterLines`), or when stdin ends (`afterLines: null`), so the
// client sees the same frames at the same points of its conversation as it saw from Zi.
//
//   node bench/replay-child.mjs <recording.json>
import { readFileSync } from "node:fs";

const LF = 0x0a;
const file = process.argv[2];
if (!file) {
  process.stderr.write("usage: node bench/replay-child.mjs <recording.json>\n");
  process.exit(2);
}
const { segments } = JSON.parse(readFileSync(file, "utf8"));
let next = 0;
let lines = 0;

function writeDue(atEnd) {
  let out = "";
  while (next < segments.length) {
    const { afterLines } = segments[next];
    const due = afterLines === null ? atEnd : afterLines <= lines;
    if (!due) break;
    out += segments[next++].frames;
  }
  if (out) process.stdout.write(out);
}

writeDue(false);
process.stdin.on("data", (chunk) => {
  for (let nl = chunk.indexOf(LF); nl !== -1; nl = chunk.indexOf(LF, nl + 1)) lines++;
  writeDue(false);
});
process.stdin.on("end", () => writeDue(true));
