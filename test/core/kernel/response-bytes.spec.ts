import { describe, expect, it } from "@jest/globals";
import { FrameEncoder } from "../../../core/kernel/frame-encoder.js";
import { FrameWriter } from "../../../core/kernel/frame-writer.js";
import { ResponseBytes } from "../../../core/kernel/response-bytes.js";
import { WriteLog } from "../../../core/kernel/write-log.js";
import { Redactor } from "../../../core/config/redactor.js";
import { MemoryOutput } from "../../../core/testing/memory-output.js";
import { RPC_LIMITS } from "../../../core/wire/limits.js";

const state = Object.freeze({ sessionId: "s-1", activity: Object.freeze({ type: "idle" }), note: "é ✓ \u2028 \"q\"" });
const bounds = { maxPendingRecords: 1000, maxPendingBytes: 1 << 24 };

function response(encoder: FrameEncoder, id: string, result: object = state): ResponseBytes {
  const frame = encoder.okResponse(id, "session.get_state", result);
  if (!(frame instanceof ResponseBytes)) throw new Error("a frozen result must be answered as bytes");
  return frame;
}

describe("responses kept as bytes (ResponseBytes)", () => {
  it("writes a turn of them as one buffer, with the same frames a string response gives", async () => {
    const encoder = new FrameEncoder(RPC_LIMITS);
    const sink = new MemoryOutput();
    const writer = new FrameWriter(sink, bounds);
    // 120 frames: the sequence numbers cross one and two more digits.
    for (let i = 0; i < 120; i++) writer.sendResponse(response(encoder, `g${i}`));
    await writer.drained();
    expect(sink.writes).toBe(1);
    expect(sink.bufferWrites).toBe(1);
    const frames = sink.frames();
    expect(frames).toHaveLength(120);
    frames.forEach((frame, i) =>
      expect(frame).toEqual({ version: 1, sequence: i + 1, type: "response", id: `g${i}`, method: "session.get_state", ok: true, result: state }),
    );
    // Byte for byte what the text encoding of the same response is.
    const text = encoder.okResponse("g0", "session.get_state", { ...state });
    expect(sink.lines[0]).toBe(`{"version":1,"sequence":1,${(text as { members: string }).members}`);
  });

  it("writes ids that need escaping as JSON does", async () => {
    const encoder = new FrameEncoder(RPC_LIMITS);
    const sink = new MemoryOutput();
    const writer = new FrameWriter(sink, bounds);
    const ids = ['quote"d', "back\\slash", "tab\there", "ünï✓", "\u2028", "~ plain !"];
    for (const id of ids) writer.sendResponse(response(encoder, id));
    await writer.drained();
    expect(sink.frames().map((frame) => frame.id)).toEqual(ids);
    for (const id of ids) expect(response(encoder, id).bytes).toBe(Buffer.byteLength(response(encoder, id).text()));
  });

  it("keeps frame order and sequence when text frames share the turn", async () => {
    const encoder = new FrameEncoder(RPC_LIMITS);
    const sink = new MemoryOutput();
    const writer = new FrameWriter(sink, bounds);
    writer.send(JSON.stringify({ type: "session_event", event: { type: "a" } }));
    writer.sendResponse(response(encoder, "r1"));
    writer.send(JSON.stringify({ type: "session_event", event: { type: "b" } }));
    await writer.drained();
    expect(sink.bufferWrites).toBe(0);
    expect(sink.frames().map((frame) => [frame.sequence, frame.type, frame.id ?? frame.event.type])).toEqual([
      [1, "session_event", "a"],
      [2, "response", "r1"],
      [3, "session_event", "b"],
    ]);
  });

  it("answers a frozen result too large for a record with undefined, as a string result", () => {
    const encoder = new FrameEncoder({ ...RPC_LIMITS, maxRecordBytes: 1024 });
    const big = Object.freeze({ text: "x".repeat(2000) });
    expect(encoder.okResponse("a", "session.get_state", big)).toBeUndefined();
    expect(encoder.okResponse("a", "session.get_state", { text: "x".repeat(2000) })).toBeUndefined();
  });

  it("fills a buffer again only once its write is done, and every answer is whole", async () => {
    const encoder = new FrameEncoder(RPC_LIMITS);
    const written: Buffer[] = [];
    const sink = new MemoryOutput();
    // A sink that remembers each buffer as it was when written, and when its write completed.
    const recording = {
      write(data: string | Buffer, done: (error?: Error | null) => void) {
        if (typeof data !== "string") written.push(data);
        sink.write(data, done);
      },
    };
    const writer = new FrameWriter(recording, bounds);
    for (const id of ["a1", "a2", "b3"]) {
      writer.sendResponse(response(encoder, id));
      writer.flushNow();
      await writer.drained();
    }
    // Two pending at once (same length): never the same buffer.
    writer.sendResponse(response(encoder, "c4"));
    writer.flushNow();
    writer.sendResponse(response(encoder, "c5"));
    writer.flushNow();
    await writer.drained();
    expect(sink.frames().map((frame) => [frame.sequence, frame.id])).toEqual([[1, "a1"], [2, "a2"], [3, "b3"], [4, "c4"], [5, "c5"]]);
    expect(written[1]).toBe(written[0]);
    expect(written[4]).not.toBe(written[3]);
  });

  it("accounts every write, in order, across many writes pending at once", async () => {
    const encoder = new FrameEncoder(RPC_LIMITS);
    const sink = new MemoryOutput();
    sink.stall();
    const writer = new FrameWriter(sink, bounds);
    for (let i = 0; i < 40; i++) {
      writer.sendResponse(response(encoder, `w${i}`));
      writer.flushNow();
    }
    expect(sink.writes).toBe(40);
    sink.release();
    await writer.drained();
    expect(writer.full).toBe(false);
    expect(sink.frames().map((frame) => frame.sequence)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });
});

describe("WriteLog", () => {
  it("gives writes back oldest first while it grows", () => {
    const log = new WriteLog();
    const taken: number[][] = [];
    for (let i = 0; i < 10; i++) log.add(i, i * 10);
    for (let i = 0; i < 5; i++) taken.push([log.takeRecords(), log.takenBytes()]);
    for (let i = 10; i < 50; i++) log.add(i, i * 10);
    for (let i = 0; i < 45; i++) taken.push([log.takeRecords(), log.takenBytes()]);
    expect(taken).toEqual(Array.from({ length: 50 }, (_, i) => [i, i * 10]));
  });
});

describe("Redactor.redactJsonBytes", () => {
  it("passes bytes without a secret on as they are, and scrubs one that has it", () => {
    const redactor = new Redactor();
    const clean = Buffer.from('{"a":"nothing to see"}\n');
    expect(redactor.redactJsonBytes(clean)).toBe(clean);
    redactor.add("sk-0123456789abcdef-secret");
    expect(redactor.redactJsonBytes(clean)).toBe(clean);
    const leaked = Buffer.from('{"a":"key sk-0123456789abcdef-secret here"}\n');
    expect(redactor.redactJsonBytes(leaked)).toBe('{"a":"key [redacted] here"}\n');
  });
});
