// The ACP wire's cold cost (docs/performance.md, ACP, session 35): a fresh process per run takes 3
// requests in and writes 20 `session/update`s out, through Zi's AcpWire (`wire`, from the tsc build in
// dist/core) or through what Zi used before it (`web`: Readable.toWeb of the input, the SDK's own
// ndJsonStream, a TransformStream each way and a WritableStream decoding each message back to text),
// and prints the CPU time (user+sys) of that part; the two alternate, the medians are printed.
//   node bench/acp-wire-probe.mjs [--node PATH] [--runs N]
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { probeOptions } from "./lib/probe-options.mjs";
import { median } from "./lib/stats.mjs";

const CHILD = "--child";

async function child(variant) {
  const { PassThrough, Readable } = await import("node:stream");
  const sdk = await import("@agentclientprotocol/sdk/unstable");
  const { AcpWire } = await import(new URL("../dist/core/acp/acp-wire.js", import.meta.url).href);
  const input = new PassThrough();
  const sink = { write: (_data, done) => process.nextTick(done) };
  const started = process.cpuUsage();
  let stream;
  if (variant === "wire") stream = new AcpWire(input, sink, 16 << 20, () => undefined).stream();
  else {
    const decoder = new TextDecoder();
    const writable = new WritableStream({ write: (chunk) => new Promise((resolve) => sink.write(decoder.decode(chunk), resolve)) });
    const framed = sdk.ndJsonStream(writable, Readable.toWeb(input), { maxMessageBytes: 16 << 20 });
    const outgoing = new TransformStream({ transform: (message, controller) => controller.enqueue(message) });
    void outgoing.readable.pipeTo(framed.writable);
    stream = { readable: framed.readable.pipeThrough(new TransformStream({ transform: (message, controller) => controller.enqueue(message) })), writable: outgoing.writable };
  }
  const reader = stream.readable.getReader();
  const requests = [
    { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } },
    { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } },
    { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s", prompt: [{ type: "text", text: "hello" }] } },
  ];
  for (const request of requests) {
    input.write(`${JSON.stringify(request)}\n`);
    await reader.read();
    // As the SDK's connection writes: a writer per message, released once written.
    const writer = stream.writable.getWriter();
    await writer.write({ jsonrpc: "2.0", id: request.id, result: {} });
    writer.releaseLock();
  }
  for (let i = 0; i < 20; i++) {
    const writer = stream.writable.getWriter();
    await writer.write({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `chunk ${i}` } } } });
    writer.releaseLock();
  }
  const cpu = process.cpuUsage(started);
  process.stdout.write(`${(cpu.user + cpu.system) / 1000}\n`);
  process.exit(0);
}

if (process.argv[2] === CHILD) await child(process.argv[3]);
else {
  const { node, runs } = probeOptions();
  const samples = { web: [], wire: [] };
  for (let r = 0; r < Math.max(runs, 10); r++) {
    for (const variant of r % 2 ? ["wire", "web"] : ["web", "wire"]) {
      samples[variant].push(Number(execFileSync(node, [fileURLToPath(import.meta.url), CHILD, variant], { encoding: "utf8" })));
    }
  }
  console.log(`node ${execFileSync(node, ["--version"], { encoding: "utf8" }).trim()}: web streams ${median(samples.web).toFixed(2)} ms, AcpWire ${median(samples.wire).toFixed(2)} ms (CPU, user+sys, medians of ${samples.web.length})`);
}
