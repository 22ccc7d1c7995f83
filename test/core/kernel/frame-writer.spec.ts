import { describe, expect, it } from "@jest/globals";
import { FrameWriter } from "../../../core/kernel/frame-writer.js";
import { MemoryOutput as MemorySink } from "../../../core/testing/memory-output.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("FrameWriter", () => {
  it("stamps version and a gapless sequence, and joins one turn's frames into one write", async () => {
    const sink = new MemorySink();
    const writer = new FrameWriter(sink, { maxPendingRecords: 100, maxPendingBytes: 1 << 20 });
    for (let i = 0; i < 5; i++) writer.send(JSON.stringify({ type: "response", n: i }));
    await writer.drained();
    expect(sink.writes).toBe(1);
    expect(sink.frames()).toEqual([0, 1, 2, 3, 4].map((n) => ({ version: 1, sequence: n + 1, type: "response", n })));
  });

  it("never exceeds the record bound: the next frame waits until the sink drains", async () => {
    const sink = new MemorySink();
    sink.stall();
    const writer = new FrameWriter(sink, { maxPendingRecords: 3, maxPendingBytes: 1 << 20 });
    const results = [0, 1, 2, 3, 4].map((n) => writer.send(JSON.stringify({ n })));
    expect(results.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(results[3]).toBeInstanceOf(Promise);
    expect(writer.full).toBe(true);
    await tick();
    expect(sink.heldRecords).toBe(3);
    sink.release();
    await Promise.all(results);
    await writer.drained();
    expect(sink.frames().map((f) => f.n)).toEqual([0, 1, 2, 3, 4]);
    expect(sink.frames().map((f) => f.sequence)).toEqual([1, 2, 3, 4, 5]);
  });

  it("never exceeds the byte bound", async () => {
    const sink = new MemorySink();
    sink.stall();
    const writer = new FrameWriter(sink, { maxPendingRecords: 1000, maxPendingBytes: 1000 });
    const body = JSON.stringify({ d: "x".repeat(400) });
    expect(writer.send(body)).toBeUndefined();
    expect(writer.send(body)).toBeUndefined();
    const third = writer.send(body);
    expect(third).toBeInstanceOf(Promise);
    await tick();
    expect(sink.heldBytes).toBeLessThanOrEqual(1000);
    sink.release();
    await third;
    await writer.drained();
    expect(sink.lines).toHaveLength(3);
  });

  it("lets a single frame larger than the byte bound through an empty lane", async () => {
    const sink = new MemorySink();
    const writer = new FrameWriter(sink, { maxPendingRecords: 10, maxPendingBytes: 100 });
    expect(writer.send(JSON.stringify({ d: "y".repeat(500) }))).toBeUndefined();
    await writer.drained();
    expect(sink.frames()[0].d).toHaveLength(500);
  });

  it("reports a broken sink once and releases every waiter", async () => {
    const sink = new MemorySink();
    sink.stall();
    const broken: Error[] = [];
    const writer = new FrameWriter(sink, { maxPendingRecords: 1, maxPendingBytes: 1 << 20 }, (e) => broken.push(e));
    writer.send("{}");
    const waiting = writer.send("{}");
    await tick();
    sink.break();
    await waiting;
    await writer.drained();
    expect(broken).toHaveLength(1);
    expect(writer.writable).toBe(false);
    expect(writer.send("{}")).toBeUndefined();
  });
});
