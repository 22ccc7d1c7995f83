// The baseline for Zi's framing and dispatch: the least a JSONL server can do in raw Node. It writes
// a `ready` line as soon as it starts, then, per LF-terminated input record, parses the JSON (to learn
// the id, as any server must) and answers with a response line of exactly <responseBytes> bytes
// (LF excluded), sequence-numbered like Zi's frames. The answers to all records of one input chunk
// are joined into one write. Like any well-behaved server it stops reading while stdout pushes back
// (stdout to a pipe is asynchronous in Node), so its memory stays bounded as Zi's must.
// With `naive`, it writes each answer on its own (one write per response), as a server that does not
// batch its output does: the baseline of the issue-11 targets for pipelined throughput.
//
//   node bench/echo-child.mjs <responseBytes> [naive]
const LF = 0x0a;
const responseBytes = Number(process.argv[2] ?? 256);
const naive = process.argv[3] === "naive";
if (!Number.isInteger(responseBytes) || responseBytes < 1 || (process.argv[3] !== undefined && !naive)) {
  process.stderr.write("usage: node bench/echo-child.mjs <responseBytes> [naive]\n");
  process.exit(2);
}
const PAD = "x".repeat(responseBytes);

let sequence = 0;
let carry = [];
let carryBytes = 0;
let pushedBack = false;

function answer(record) {
  let id = null;
  let method = null;
  try {
    const request = JSON.parse(record.toString("utf8"));
    id = typeof request.id === "string" ? request.id : null;
    method = typeof request.method === "string" ? request.method : null;
  } catch {
    // answered all the same: the size of the answer is what matters here
  }
  const head = `{"version":1,"sequence":${++sequence},"type":"response","id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"ok":true,"result":{"pad":"`;
  const tail = `"}}`;
  const padBytes = Math.max(0, responseBytes - Buffer.byteLength(head) - tail.length);
  return `${head}${PAD.slice(0, padBytes)}${tail}\n`;
}

process.stdout.write(`{"version":1,"sequence":${++sequence},"type":"ready","state":{}}\n`);

process.stdin.on("data", (chunk) => {
  let out = "";
  let start = 0;
  let nl = chunk.indexOf(LF, start);
  while (nl !== -1) {
    let record = chunk.subarray(start, nl);
    if (carry.length > 0) {
      carry.push(record);
      record = Buffer.concat(carry, carryBytes + record.length);
      carry = [];
      carryBytes = 0;
    }
    if (naive) {
      if (!process.stdout.write(answer(record))) pushedBack = true;
    } else {
      out += answer(record);
    }
    start = nl + 1;
    nl = chunk.indexOf(LF, start);
  }
  if (start < chunk.length) {
    carry.push(chunk.subarray(start));
    carryBytes += chunk.length - start;
  }
  if (out && !process.stdout.write(out)) pushedBack = true;
  if (pushedBack) {
    pushedBack = false;
    process.stdin.pause();
    process.stdout.once("drain", () => process.stdin.resume());
  }
});
