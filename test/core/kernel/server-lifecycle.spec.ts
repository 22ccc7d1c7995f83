import { describe, expect, it } from "@jest/globals";
import { MemoryOutput } from "../../../core/testing/testing-api.js";
import { gates, serveTestFamily } from "../../support/test-family.js";

const req = (id: string, method: string, params?: object) =>
  params === undefined ? { version: 1, id, method } : { version: 1, id, method, params };

/** An output that holds everything from the start, `ready` included: a client that has not read yet. */
const stalled = (): MemoryOutput => {
  const output = new MemoryOutput();
  output.stall();
  return output;
};

const ended = (input: NodeJS.ReadableStream & { readableEnded: boolean }): Promise<void> =>
  new Promise((resolve) => (input.readableEnded ? resolve() : input.once("end", () => resolve())));

describe("server lifecycle", () => {
  it("on stdin close: cancels work, waits for settlement, answers, exits 0", async () => {
    const h = serveTestFamily();
    h.send(req("w", "test.wait", { key: "close-1" }));
    await gates.entered("close-1");
    h.input.end();
    await h.module.whenCancelled();
    expect(h.module.cancelled).toBe(1);
    gates.open("close-1");
    expect(await h.exit).toBe(0);
    expect(h.output.frames().slice(1)).toEqual([expect.objectContaining({ id: "w", ok: true })]);
  });

  it("processes the records received before EOF, including an unterminated last one", async () => {
    const h = serveTestFamily();
    h.input.end(`${JSON.stringify(req("a", "test.echo", { bytes: 1 }))}\n${JSON.stringify(req("b", "test.echo", { bytes: 2 }))}`);
    expect(await h.exit).toBe(0);
    expect(h.output.frames().slice(1).map((f) => f.id)).toEqual(["a", "b"]);
  });

  it("answers operations still unsettled after the settlement bound with operation_failed", async () => {
    const h = serveTestFamily({ limits: { settlementMs: 50 } });
    h.send(req("stuck", "test.slow", { key: "never-opened" }));
    await gates.entered("never-opened");
    h.input.end();
    expect(await h.exit).toBe(0);
    const frames = h.output.frames().slice(1);
    expect(frames).toEqual([
      expect.objectContaining({ id: "stuck", ok: false, error: expect.objectContaining({ code: "operation_failed", applied: "unknown" }) }),
    ]);
  });

  it("gives a signal the same path with its own exit code", async () => {
    const h = serveTestFamily();
    h.send(req("w", "test.wait", { key: "sig" }));
    await gates.entered("sig");
    const exit = h.shutdown(143);
    gates.open("sig");
    expect(await exit).toBe(143);
    expect(h.module.cancelled).toBe(1);
    expect(h.output.frames().slice(1)).toEqual([expect.objectContaining({ id: "w", ok: true })]);
  });

  it("is fatal after exactly one invalid_framing frame and exits 1, discarding the rest", async () => {
    const h = serveTestFamily();
    h.input.write(Buffer.concat([
      Buffer.from(`${JSON.stringify(req("before", "test.echo", { bytes: 1 }))}\n`),
      Buffer.from([0xff, 0x0a]),
      Buffer.from(`${JSON.stringify(req("after", "test.echo", { bytes: 1 }))}\n`),
    ]));
    expect(await h.exit).toBe(1);
    const frames = h.output.frames().slice(1);
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
    const h = serveTestFamily({ limits: { maxRecordBytes: 1000 } });
    // No LF ever arrives: the record is refused as soon as it passes the bound, not at its end.
    h.input.write(Buffer.alloc(800, 0x20));
    h.input.write(Buffer.alloc(800, 0x20));
    expect(await h.exit).toBe(1);
    expect(h.output.frames()).toEqual([
      expect.objectContaining({ type: "ready" }),
      expect.objectContaining({ type: "protocol_error", fatal: true, error: expect.objectContaining({ code: "invalid_framing" }) }),
    ]);
  });

  it("stops reading input while output is at its bound, and loses nothing once the client reads", async () => {
    const h = serveTestFamily({ limits: { maxPendingOutputRecords: 8 }, output: stalled() });
    const paused = new Promise((resolve) => h.input.once("pause", resolve));
    // About 1.4 MB of requests: more than the 1 MiB input queue, so reading must pause too.
    const requests = Array.from({ length: 20000 }, (_, i) => req(`r${i}`, "test.echo", { bytes: i }));
    h.send(...requests);
    await paused;
    expect(h.output.heldRecords).toBeLessThanOrEqual(8);
    expect(h.output.lines).toHaveLength(0);
    expect(h.input.isPaused()).toBe(true);
    h.output.release();
    const frames = await h.output.waitFor(20001);
    expect(frames.slice(1).map((f) => f.id)).toEqual(requests.map((r) => r.id));
    expect(frames.map((f) => f.sequence)).toEqual(Array.from({ length: 20001 }, (_, i) => i + 1));
  });

  it("makes an event producer wait while output is full, then delivers every event in order", async () => {
    const h = serveTestFamily({ limits: { maxPendingOutputRecords: 4 }, output: stalled() });
    let produced = 0;
    const producer = (async () => {
      for (let i = 0; i < 50; i++) {
        await h.module.emit({ type: "tick", i });
        produced++;
      }
    })();
    await h.output.waitForHeld(4);
    expect(produced).toBeLessThan(10);
    expect(h.output.heldRecords).toBeLessThanOrEqual(4);
    h.output.release();
    await producer;
    const frames = await h.output.waitFor(51);
    expect(frames.slice(1).map((f) => f.event.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it("still admits records received before EOF while an ordered handler holds admission", async () => {
    const h = serveTestFamily();
    h.send(req("slow", "test.slow", { key: "eof-ordered" }), req("next", "test.echo", { bytes: 1 }));
    await gates.entered("eof-ordered");
    h.input.end();
    await ended(h.input);
    gates.open("eof-ordered");
    expect(await h.exit).toBe(0);
    expect(h.output.frames().slice(1).map((f) => f.id)).toEqual(["slow", "next"]);
  });

  it("keeps admitting after EOF while a slow client reads", async () => {
    const h = serveTestFamily({ limits: { maxPendingOutputRecords: 3, settlementMs: 200 }, output: stalled() });
    h.send(...Array.from({ length: 50 }, (_, i) => req(`s${i}`, "test.echo", { bytes: i })));
    h.input.end();
    // A client that reads whatever is pending, one batch at a time, until Zi exits.
    let exited = false;
    const exit = h.exit.finally(() => (exited = true));
    while (!exited) {
      await Promise.race([h.output.waitForHeld(1), exit]);
      h.output.releaseHeld();
    }
    expect(await exit).toBe(0);
    expect(h.output.frames().slice(1).map((f) => f.id)).toEqual(Array.from({ length: 50 }, (_, i) => `s${i}`));
  });

  it("gives up on a closed stdin once a client that does not read stalls admission for the settlement bound", async () => {
    const h = serveTestFamily({ limits: { maxPendingOutputRecords: 3, settlementMs: 100 }, output: stalled() });
    h.send(...Array.from({ length: 10 }, (_, i) => req(`q${i}`, "test.echo", { bytes: i })));
    await h.output.waitForHeld(3);
    h.input.end();
    await h.module.whenCancelled();
    expect(h.module.cancelled).toBe(1);
    h.output.release();
    expect(await h.exit).toBe(0);
    const ids = h.output.frames().slice(1).map((f) => f.id);
    expect(ids).toEqual(["q0", "q1"]);
  });

  it("shuts down when stdout breaks", async () => {
    const h = serveTestFamily();
    await h.output.waitFor(1);
    h.output.break();
    h.send(req("x", "test.echo", { bytes: 1 }));
    expect(await h.exit).toBe(0);
  });
});
