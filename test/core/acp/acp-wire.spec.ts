import { describe, expect, it } from "@jest/globals";
import { PassThrough, Readable, Writable } from "node:stream";
import { MessageTooLargeError, PROTOCOL_VERSION, agent, ndJsonStream } from "@agentclientprotocol/sdk/unstable";
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { AcpWire } from "../../../core/acp/acp-wire.js";
import type { OutputSink } from "../../../core/kernel/output-sink.js";

type Message = Record<string, unknown>;

/** What a reader of the wire's messages saw: every message, then the end or the error. */
interface Outcome {
  messages: unknown[];
  end: "closed" | string;
  written: unknown[];
}

/** An OutputSink that records each JSON line and completes each write on a later turn, as stdout does. */
function recordingSink(): OutputSink & { lines: unknown[] } {
  const lines: unknown[] = [];
  return {
    lines,
    write(data, done) {
      for (const line of data.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      setImmediate(() => done());
    },
  };
}

async function readAll(readable: ReadableStream<acp.AnyMessage>): Promise<{ messages: unknown[]; end: string }> {
  const reader = readable.getReader();
  const messages: unknown[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { messages, end: "closed" };
      messages.push(value);
    }
  } catch (error) {
    return { messages, end: error instanceof MessageTooLargeError ? `too large: ${error.maxMessageBytes}` : String(error) };
  }
}

/** The chunks through Zi's wire. */
async function throughWire(chunks: readonly (string | Buffer)[], max: number): Promise<Outcome> {
  const input = new PassThrough();
  const sink = recordingSink();
  const wire = new AcpWire(input, sink, max, () => undefined);
  const reading = readAll(wire.stream().readable);
  for (const chunk of chunks) input.write(chunk);
  input.end();
  const { messages, end } = await reading;
  await wire.drained();
  return { messages, end, written: sink.lines };
}

/** The same chunks through the SDK's own ndJsonStream over the Node stream (the oracle). */
async function throughSdk(chunks: readonly (string | Buffer)[], max: number): Promise<Outcome> {
  const input = new PassThrough();
  const written: unknown[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) written.push(JSON.parse(line));
      done();
    },
  });
  const stream = ndJsonStream(Writable.toWeb(output) as WritableStream<Uint8Array>, Readable.toWeb(input) as ReadableStream<Uint8Array>, { maxMessageBytes: max });
  const reading = readAll(stream.readable);
  for (const chunk of chunks) input.write(chunk);
  input.end();
  const { messages, end } = await reading;
  return { messages, end, written };
}

const line = (message: Message): string => `${JSON.stringify(message)}\n`;
const request = (id: number, method: string, params: Message = {}): Message => ({ jsonrpc: "2.0", id, method, params });

describe("AcpWire frames stdin as the SDK's ndJsonStream does", () => {
  // No `initialize` here: what follows one waits for its answer (the order's tests below).
  const one = line(request(1, "session/list", { cwd: "/tmp" }));
  const two = line(request(2, "session/new", { cwd: "/tmp/é ü", mcpServers: [] }));
  const cases: [string, (string | Buffer)[], number][] = [
    ["several messages in one chunk", [one + two], 1024],
    ["a message split across chunks, inside a multi-byte character", [two.slice(0, 10), Buffer.from(two.slice(10)).subarray(0, 30), Buffer.from(two.slice(10)).subarray(30)], 1024],
    ["CRLF endings, blank and whitespace lines", [one.replace("\n", "\r\n"), "\n  \r\n", two.replace("\n", "\r\n")], 1024],
    ["a last line without its newline", [one, two.trimEnd()], 1024],
    ["a line that is not JSON, then a good one", ["{ not json\n", one], 1024],
    ["a JSON array and a JSON number: -32600, as the SDK answers them", ["[1,2]\n", "42\n", one], 1024],
    ["a line at exactly the bound, CR not counted", [`${one.trimEnd()}\r\n`], one.length - 1],
    ["a line one byte over the bound", [one], one.length - 2],
    ["a line over the bound across chunks, no newline yet", [one.slice(0, 20), one.slice(20, 60)], 50],
    ["a line over the bound after a good one", [two, `${"x".repeat(200)}\n`, one], two.length],
  ];
  it.each(cases)("%s", async (_name, chunks, max) => {
    const [wire, sdk] = [await throughWire(chunks, max), await throughSdk(chunks, max)];
    expect(wire).toEqual(sdk);
    // Not vacuous: each case gives messages, an error answer or the bound's error.
    expect(sdk.messages.length + sdk.written.length + (sdk.end === "closed" ? 0 : 1)).toBeGreaterThan(0);
  });
});

describe("AcpWire's order", () => {
  it("queues what follows initialize until its answer is handed to the output, observing each message as it is handed on", async () => {
    const input = new PassThrough();
    const sink = recordingSink();
    const observed: unknown[] = [];
    const wire = new AcpWire(input, sink, 1024, (message) => observed.push(message.id));
    const { readable, writable } = wire.stream();
    const reader = readable.getReader();
    input.write(line(request(1, "initialize")) + line(request(2, "session/new")) + line({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } }));
    expect((await reader.read()).value).toMatchObject({ id: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(observed).toEqual([1]);
    const writer = writable.getWriter();
    await writer.write({ jsonrpc: "2.0", id: 1, result: { protocolVersion: 1 } });
    expect(observed).toEqual([1, 2, undefined]);
    expect((await reader.read()).value).toMatchObject({ id: 2 });
    expect((await reader.read()).value).toMatchObject({ method: "session/cancel" });
    expect(sink.lines).toEqual([{ jsonrpc: "2.0", id: 1, result: { protocolVersion: 1 } }]);
  });

  it("the end of input waits for the queued messages: they are read before the close", async () => {
    const input = new PassThrough();
    const wire = new AcpWire(input, recordingSink(), 1024, () => undefined);
    const { readable, writable } = wire.stream();
    const reader = readable.getReader();
    input.end(line(request(1, "initialize")) + line(request(2, "session/prompt")));
    expect((await reader.read()).value).toMatchObject({ id: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    const writer = writable.getWriter();
    await writer.write({ jsonrpc: "2.0", id: 1, result: {} });
    expect((await reader.read()).value).toMatchObject({ id: 2 });
    expect((await reader.read()).done).toBe(true);
  });

  it("stops reading stdin while the connection does not take messages (backpressure), and goes on when it does", async () => {
    const input = new PassThrough();
    const wire = new AcpWire(input, recordingSink(), 1024, () => undefined);
    const reader = wire.stream().readable.getReader();
    for (let id = 1; id <= 50; id++) input.write(line(request(id, "session/list")));
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.isPaused()).toBe(true);
    const ids: unknown[] = [];
    for (let id = 1; id <= 50; id++) ids.push(((await reader.read()).value as Message).id);
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});

describe("AcpWire under the SDK's own connection", () => {
  it("the SDK's agent reads requests from it and answers through it, and its end closes the connection", async () => {
    const input = new PassThrough();
    const sink = recordingSink();
    const wire = new AcpWire(input, sink, 1024, () => undefined);
    const connection = agent({ name: "wire-test" })
      .onRequest("initialize", () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] }))
      .connect(wire.stream());
    input.write(line(request(7, "initialize", { protocolVersion: 1, clientCapabilities: {} })));
    input.write(line(request(8, "session/new", { cwd: "/tmp", mcpServers: [] })));
    while (sink.lines.length < 2) await new Promise((resolve) => setImmediate(resolve));
    input.end();
    await connection.closed;
    expect(sink.lines).toEqual([
      { jsonrpc: "2.0", id: 7, result: { protocolVersion: PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] } },
      expect.objectContaining({ jsonrpc: "2.0", id: 8, error: expect.objectContaining({ code: -32601 }) }),
    ]);
  });
});
