import { describe, expect, it } from "@jest/globals";
import { KernelHarness } from "../../support/kernel-harness.js";
import { gates } from "../../support/test-family.js";

const req = (id: string, method: string, params?: object) =>
  params === undefined ? { version: 1, id, method } : { version: 1, id, method, params };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("server lifecycle", () => {
  it("on stdin close: cancels work, waits for settlement, answers, exits 0", async () => {
    const h = new KernelHarness().start();
    h.send(req("w", "test.wait", { key: "close-1" }));
    await sleep(10);
    h.input.end();
    await sleep(10);
    expect(h.ports.cancelled).toBe(1);
    gates.open("close-1");
    expect(await h.exit).toBe(0);
    expect(h.sink.frames().slice(1)).toEqual([expect.objectContaining({ id: "w", ok: true })]);
  });

  it("processes the records received before EOF, including an unterminated last one", async () => {
    const h = new KernelHarness().start();
    h.input.end(`${JSON.stringify(req("a", "test.echo", { bytes: 1 }))}\n${JSON.stringify(req("b", "test.echo", { bytes: 2 }))}`);
    expect(await h.exit).toBe(0);
    expect(h.sink.frames().slice(1).map((f) => f.id)).toEqual(["a", "b"]);
  });

  it("answers operations still unsettled after the settlement bound with operation_failed", async () => {
    const h = new KernelHarness({ limits: { settlementMs: 50 } }).start();
    h.send(req("stuck", "test.slow", { key: "never-opened" }));
    await sleep(10);
    h.input.end();
    expect(await h.exit).toBe(0);
    const frames = h.sink.frames().slice(1);
    expect(frames).toEqual([
      expect.objectContaining({ id: "stuck", ok: false, error: expect.objectContaining({ code: "operation_failed", applied: "unknown" }) }),
    ]);
  });

  it("gives a signal the same path with its own exit code", async () => {
    const h = new KernelHarness().start();
    h.send(req("w", "test.wait", { key: "sig" }));
    await sleep(10);
    const exit = h.server.shutdown(143);
    gates.open("sig");
    expect(await exit).toBe(143);
    expect(h.ports.cancelled).toBe(1);
    expect(h.sink.frames().slice(1)).toEqual([expect.objectContaining({ id: "w", ok: true })]);
  });

  it("is fatal after exactly one invalid_framing frame and exits 1, discarding the rest", async () => {
    const h = new KernelHarness().start();
    h.input.write(Buffer.concat([
      Buffer.from(`${JSON.stringify(req("before", "test.echo", { bytes: 1 }))}\n`),
      Buffer.from([0xff, 0x0a]),
      Buffer.from(`${JSON.stringify(req("after", "test.echo", { bytes: 1 }))}\n`),
    ]));
    expect(await h.exit).toBe(1);
    const frames = h.sink.frames().slice(1);
    expect(frames).toHaveLength(2);
    expect(frames[0]).toMatchObject({ id: "before", ok: true });
    expect(frames[1]).toEqual({
      version: 1,
      sequence: 3,
      type: "protocol_error",
      id: null,
      error: { code: "invalid_framing", message: expect.any(String) },
      fatal: true,
    });
  });

  it("treats an oversized record as fatal while it is still arriving", async () => {
    const h = new KernelHarness({ limits: { maxRecordBytes: 1000 } }).start();
    h.input.write(Buffer.alloc(800, 0x20));
    await sleep(10);
    expect(h.sink.lines).toHaveLength(1);
    h.input.write(Buffer.alloc(800, 0x20));
    expect(await h.exit).toBe(1);
    expect(h.sink.frames()[1]).toMatchObject({ type: "protocol_error", fatal: true, error: { code: "invalid_framing" } });
  });

  it("stops reading input while output is at its bound, and loses nothing once the client reads", async () => {
    const h = new KernelHarness({ limits: { maxPendingOutputRecords: 8 } });
    h.sink.stall();
    h.start();
    // About 1.4 MB of requests: more than the 1 MiB input queue, so reading must pause too.
    const requests = Array.from({ length: 20000 }, (_, i) => req(`r${i}`, "test.echo", { bytes: i }));
    h.send(...requests);
    await sleep(50);
    expect(h.sink.heldRecords).toBeLessThanOrEqual(8);
    expect(h.sink.lines).toHaveLength(0);
    expect(h.input.isPaused()).toBe(true);
    const release = setInterval(() => h.sink.release(), 1);
    const frames = await h.sink.waitFor(20001, 20000);
    clearInterval(release);
    expect(frames.slice(1).map((f) => f.id)).toEqual(requests.map((r) => r.id));
    expect(frames.map((f) => f.sequence)).toEqual(Array.from({ length: 20001 }, (_, i) => i + 1));
  });

  it("makes an event producer wait while output is full, then delivers every event in order", async () => {
    const h = new KernelHarness({ limits: { maxPendingOutputRecords: 4 } });
    h.sink.stall();
    h.start();
    let produced = 0;
    const producer = (async () => {
      for (let i = 0; i < 50; i++) {
        await h.ports.emit({ type: "tick", i });
        produced++;
      }
    })();
    await sleep(50);
    expect(produced).toBeLessThan(10);
    expect(h.sink.heldRecords).toBeLessThanOrEqual(4);
    const release = setInterval(() => h.sink.release(), 5);
    await producer;
    const frames = await h.sink.waitFor(51);
    clearInterval(release);
    expect(frames.slice(1).map((f) => f.event.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it("still admits records received before EOF while an ordered handler holds admission", async () => {
    const h = new KernelHarness().start();
    h.send(req("slow", "test.slow", { key: "eof-ordered" }), req("next", "test.echo", { bytes: 1 }));
    await sleep(10);
    h.input.end();
    await sleep(10);
    gates.open("eof-ordered");
    expect(await h.exit).toBe(0);
    expect(h.sink.frames().slice(1).map((f) => f.id)).toEqual(["slow", "next"]);
  });

  it("keeps admitting after EOF while a slow client reads", async () => {
    const h = new KernelHarness({ limits: { maxPendingOutputRecords: 3, settlementMs: 200 } });
    h.sink.stall();
    h.start();
    h.send(...Array.from({ length: 50 }, (_, i) => req(`s${i}`, "test.echo", { bytes: i })));
    h.input.end();
    const reader = setInterval(() => h.sink.release(), 50);
    expect(await h.exit).toBe(0);
    clearInterval(reader);
    expect(h.sink.frames().slice(1).map((f) => f.id)).toEqual(Array.from({ length: 50 }, (_, i) => `s${i}`));
  });

  it("gives up on a closed stdin once a client that does not read stalls admission for the settlement bound", async () => {
    const h = new KernelHarness({ limits: { maxPendingOutputRecords: 3, settlementMs: 100 } });
    h.sink.stall();
    h.start();
    h.send(...Array.from({ length: 10 }, (_, i) => req(`q${i}`, "test.echo", { bytes: i })));
    await sleep(20);
    h.input.end();
    await sleep(20);
    expect(h.ports.cancelled).toBe(0);
    await sleep(250);
    expect(h.ports.cancelled).toBe(1);
    h.sink.release();
    expect(await h.exit).toBe(0);
    const ids = h.sink.frames().slice(1).map((f) => f.id);
    expect(ids).toEqual(["q0", "q1"]);
  });

  it("shuts down when stdout breaks", async () => {
    const h = new KernelHarness().start();
    await h.sink.waitFor(1);
    h.sink.break();
    h.send(req("x", "test.echo", { bytes: 1 }));
    expect(await h.exit).toBe(0);
  });
});
