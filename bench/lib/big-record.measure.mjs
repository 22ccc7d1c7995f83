// 4. One record of exactly 16 MiB (the protocol's bound; LF not counted): a get_state request padded
// with an unknown params field. Zi must frame and parse it and answer with a non-fatal protocol_error
// invalid_request; the echo child splits and parses it and answers with a line of the same size.
import { performance } from "node:perf_hooks";
import { FrameType, preview } from "./frame-reader.mjs";
import { MiB, median } from "./stats.mjs";

const ID = "big";

export function bigRecord(recordBytes) {
  const head = `{"version":1,"id":"${ID}","method":"session.get_state","params":{"pad":"`;
  const tail = '"}}';
  const buffer = Buffer.alloc(recordBytes + 1, "x");
  buffer.write(head, 0, "latin1");
  buffer.write(tail, recordBytes - tail.length, "latin1");
  buffer[recordBytes] = 0x0a;
  return buffer;
}

/** Resolves with { ms, frame, bytes } once the answer to the big record is read. */
async function sendBig(child, buffer) {
  let frame;
  let bytes = 0;
  const done = child.wait((line, sequence, type) => {
    if (type !== FrameType.response && type !== FrameType.protocolError) throw new Error(`${child.label}: unexpected frame ${preview(line)}`);
    frame = JSON.parse(line.toString("utf8"));
    bytes = line.length;
    if (frame.id !== ID) throw new Error(`${child.label}: answer to the wrong id: ${preview(line)}`);
    return true;
  });
  const start = performance.now();
  child.send(buffer);
  await done;
  return { ms: performance.now() - start, frame, bytes };
}

export async function measureBigRecord(children, report, { reps, recordBytes = 16 * MiB }) {
  const buffer = bigRecord(recordBytes);
  const zi = await children.zi("zi (16 MiB record)");
  const first = await sendBig(zi, buffer); // also the warm-up
  const { frame } = first;
  if (frame.type !== "protocol_error" || frame.fatal !== false || frame.error?.code !== "invalid_request") {
    throw new Error(`zi: expected a non-fatal invalid_request for the 16 MiB record, got ${JSON.stringify(frame).slice(0, 300)}`);
  }
  const echo = await children.echo("echo (16 MiB record)", first.bytes);
  await sendBig(echo, buffer);
  const samples = { zi: [], baseline: [] };
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? [["zi", zi], ["baseline", echo]] : [["baseline", echo], ["zi", zi]];
    for (const [side, child] of order) samples[side].push((await sendBig(child, buffer)).ms);
  }
  // The connection must survive a record of exactly the bound.
  const after = await zi.request("session.get_state");
  if (after.ok !== true) throw new Error(`zi: get_state after the 16 MiB record failed: ${JSON.stringify(after)}`);
  await zi.close();
  await echo.close();
  report.ratio({
    name: "one 16 MiB record",
    unit: "ms",
    zi: median(samples.zi),
    baseline: median(samples.baseline),
    better: "lower",
    target: 2,
    samples,
    details: { recordBytes, ziAnswer: frame.error.code },
  });
}
