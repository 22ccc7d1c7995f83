import { describe, expect, it } from "@jest/globals";
import { gates, serveTestFamily } from "../../support/test-family.js";
import { RPC_LIMITS } from "../../../core/wire/limits.js";

const req = (id: string, method: string, params?: object) =>
  params === undefined ? { version: 1, id, method } : { version: 1, id, method, params };

describe("connection: ready and framing", () => {
  it("writes ready first, with the state snapshot and every limit", async () => {
    const h = serveTestFamily();
    const [ready] = await h.output.waitFor(1);
    expect(ready).toEqual({ version: 1, sequence: 1, type: "ready", state: h.module.session.getState(), limits: { ...RPC_LIMITS } });
  });

  it("answers a JSON null, array, number and string with parse_error and id null, and stays open", async () => {
    const h = serveTestFamily();
    h.send("null", "[1,2]", "42", '"hello"', "{not json", req("ok", "test.echo", { bytes: 1 }));
    const frames = await h.frames(6);
    for (const frame of frames.slice(0, 5)) {
      expect(frame).toMatchObject({ type: "protocol_error", id: null, fatal: false, error: { code: "parse_error" } });
    }
    expect(frames[5]).toMatchObject({ type: "response", id: "ok", ok: true });
    expect(frames.map((f) => f.sequence)).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it("accepts a 256-byte id and rejects a 257-byte id without echoing it", async () => {
    const h = serveTestFamily();
    const id256 = "é".repeat(128);
    const id257 = `${"é".repeat(128)}x`;
    expect(Buffer.byteLength(id256)).toBe(256);
    h.send(req(id256, "test.echo", { bytes: 0 }), req(id257, "test.echo", { bytes: 0 }));
    const [ok, bad] = await h.frames(2);
    expect(ok).toMatchObject({ type: "response", id: id256, ok: true });
    expect(bad).toMatchObject({ type: "protocol_error", id: null, error: { code: "invalid_request" } });
    expect(JSON.stringify(bad)).not.toContain(id257);
  });

  it("checks the envelope in a fixed order with the codes of docs/protocol.md", async () => {
    const h = serveTestFamily();
    h.send(
      { id: "a", method: "test.echo" },
      { version: 2, id: "b", method: "test.echo" },
      { version: "1", id: "c", method: "test.echo" },
      { version: 1, id: "", method: "test.echo" },
      { version: 1, id: 7, method: "test.echo" },
      { version: 1, id: "f", method: 3 },
      { version: 1, id: "g", method: "nope.nothing" },
      { version: 1, id: "h", method: "test.echo", params: [1] },
      { version: 1, id: "i", method: "test.echo", params: null },
      { version: 1, id: "j", method: "test.echo", params: { bytes: 1 }, extra: true },
    );
    const frames = await h.frames(10);
    expect(frames.map((f) => [f.type, f.id, f.error.code])).toEqual([
      ["protocol_error", "a", "invalid_request"],
      ["protocol_error", "b", "unsupported_version"],
      ["protocol_error", "c", "invalid_request"],
      ["protocol_error", null, "invalid_request"],
      ["protocol_error", null, "invalid_request"],
      ["protocol_error", "f", "invalid_request"],
      ["protocol_error", "g", "unknown_method"],
      ["protocol_error", "h", "invalid_request"],
      ["protocol_error", "i", "invalid_request"],
      ["protocol_error", "j", "invalid_request"],
    ]);
    expect(frames[1].error.details).toEqual({ supported: [1] });
    expect(frames.every((f) => f.fatal === false)).toBe(true);
  });

  it("rejects bad params with details naming each offending field, never the values", async () => {
    const h = serveTestFamily();
    h.send(
      req("p1", "test.echo", { bytes: "secret-value", note: 5, stray: "secret-value" }),
      req("p2", "test.echo", { bytes: null }),
      req("p3", "test.echo", { bytes: 1, note: null }),
      req("p4", "connection.set_events", { mode: "some" }),
      req("p5", "test.fail", { any: 1 }),
    );
    const [p1, p2, p3, p4, p5] = await h.frames(5);
    expect(p1).toMatchObject({ type: "protocol_error", id: "p1", error: { code: "invalid_request" } });
    expect(p1.error.details.map((d: any) => d.field).sort()).toEqual(["params.bytes", "params.note", "params.stray"]);
    expect(JSON.stringify(p1)).not.toContain("secret-value");
    expect(p2.error.details.map((d: any) => d.field)).toEqual(["params.bytes"]);
    expect(p3.error.details.map((d: any) => d.field)).toEqual(["params.note"]);
    expect(p4.error.details.map((d: any) => d.field)).toEqual(["params.mode"]);
    expect(p5.error.details).toEqual([{ field: "params.any", problem: "unknown field" }]);
  });

  it("does not let a __proto__ key reach the params object", async () => {
    const h = serveTestFamily();
    h.send('{"version":1,"id":"x","method":"test.echo","params":{"bytes":1,"__proto__":{"polluted":true}}}');
    const [frame] = await h.frames(1);
    expect(frame).toMatchObject({ type: "protocol_error", error: { code: "invalid_request" } });
    expect(({} as any).polluted).toBeUndefined();
  });
});

describe("connection: correlation and admission", () => {
  it("refuses a duplicate in-flight id and never launches it, then allows reuse after the response", async () => {
    const h = serveTestFamily();
    h.send(req("dup", "test.wait", { key: "dup-1" }), req("dup", "test.wait", { key: "dup-2" }));
    const [refusal] = await h.frames(1);
    expect(refusal).toMatchObject({ type: "protocol_error", id: "dup", error: { code: "invalid_request" }, fatal: false });
    gates.open("dup-1");
    const [, first] = await h.frames(2);
    expect(first).toMatchObject({ type: "response", id: "dup", ok: true, result: { key: "dup-1" } });
    h.send(req("dup", "test.echo", { bytes: 3 }));
    const [, , reused] = await h.frames(3);
    expect(reused).toMatchObject({ type: "response", id: "dup", result: { bytes: 3 } });
  });

  it("refuses a duplicate id that asks for the reserved interrupt slot", async () => {
    const h = serveTestFamily();
    h.send(req("same", "test.wait", { key: "same-1" }), req("same", "test.stop", { key: "same-stop" }));
    const [refusal] = await h.frames(1);
    expect(refusal).toMatchObject({ type: "protocol_error", id: "same", error: { code: "invalid_request" } });
    gates.open("same-1");
    gates.open("same-stop");
    const frames = await h.frames(2);
    expect(frames[1]).toMatchObject({ id: "same", result: { key: "same-1" } });
  });

  it("admits 32 waiting requests and answers the 33rd with capacity at once", async () => {
    const h = serveTestFamily();
    const waits = Array.from({ length: 33 }, (_, i) => req(`w${i}`, "test.wait", { key: "cap" }));
    h.send(...waits);
    const [capacity] = await h.frames(1);
    expect(capacity).toEqual({
      version: 1,
      sequence: 2,
      type: "response",
      id: "w32",
      method: "test.wait",
      ok: false,
      error: { code: "capacity", message: expect.any(String), applied: "no" },
    });
    gates.open("cap");
    const frames = await h.frames(33);
    expect(frames.slice(1).map((f) => f.id).sort()).toEqual(Array.from({ length: 32 }, (_, i) => `w${i}`).sort());
    expect(frames.slice(1).every((f) => f.ok)).toBe(true);
  });

  it("lets an interrupt through the reserved slot when the 32 ordinary slots are taken, and only one", async () => {
    const h = serveTestFamily();
    const waits = Array.from({ length: 32 }, (_, i) => req(`o${i}`, "test.wait", { key: "full" }));
    h.send(...waits, req("int-1", "test.stop", { key: "stop" }), req("int-2", "test.stop", { key: "stop" }), req("plain", "test.echo", { bytes: 1 }));
    const [second, plain] = await h.frames(2);
    expect(second).toMatchObject({ id: "int-2", ok: false, error: { code: "capacity", applied: "no" } });
    expect(plain).toMatchObject({ id: "plain", ok: false, error: { code: "capacity" } });
    gates.open("stop");
    const [, , first] = await h.frames(3);
    expect(first).toMatchObject({ id: "int-1", ok: true, result: {} });
    gates.open("full");
    await h.frames(35);
  });

  it("admits in input order: an ordered async handler holds back later requests", async () => {
    const h = serveTestFamily();
    h.send(req("slow", "test.slow", { key: "order" }), req("fast", "test.echo", { bytes: 1 }));
    await gates.entered("order");
    // test.echo answers at once when admitted: had it been admitted while test.slow waits, it would come first.
    gates.open("order");
    const frames = await h.frames(2);
    expect(frames.map((f) => f.id)).toEqual(["slow", "fast"]);
  });

  it("lets a later response overtake only a waiting handler", async () => {
    const h = serveTestFamily();
    h.send(req("waiter", "test.wait", { key: "overtake" }), req("quick", "test.echo", { bytes: 2 }));
    const [quick] = await h.frames(1);
    expect(quick.id).toBe("quick");
    gates.open("overtake");
    const [, waiter] = await h.frames(2);
    expect(waiter.id).toBe("waiter");
  });

  it("answers known failures with their code and unknown ones with a generic message logged to stderr", async () => {
    const h = serveTestFamily();
    h.send(req("nf", "test.missing"), req("boom", "test.fail"));
    const [nf, boom] = await h.frames(2);
    expect(nf).toMatchObject({ ok: false, error: { code: "not_found", message: "no such thing", applied: "no" } });
    expect(boom).toMatchObject({ ok: false, error: { code: "operation_failed", message: "internal error", applied: "unknown" } });
    expect(JSON.stringify(boom)).not.toContain("secret");
    expect(h.logs.join("\n")).toContain("secret internal detail");
  });

  it("replaces a result larger than the output record bound with operation_failed", async () => {
    const h = serveTestFamily({ limits: { maxRecordBytes: 4096 } });
    h.send(req("big", "test.big", { bytes: 5000 }), req("small", "test.big", { bytes: 100 }));
    const [big, small] = await h.frames(2);
    expect(big).toMatchObject({ id: "big", ok: false, error: { code: "operation_failed" } });
    expect(small).toMatchObject({ id: "small", ok: true });
  });
});

describe("connection.set_events", () => {
  it("hides only session_event frames, consumes no sequence numbers, and applies in input order", async () => {
    const h = serveTestFamily();
    await h.output.waitFor(1);
    await h.module.emit({ type: "first" });
    h.send(req("off", "connection.set_events", { mode: "none" }));
    const [, off] = await h.frames(2);
    expect(off).toMatchObject({ id: "off", ok: true, result: { mode: "none" } });
    await h.module.emit({ type: "hidden" });
    h.send("garbage", req("on", "connection.set_events", {}));
    const frames = await h.frames(4);
    expect(frames[2]).toMatchObject({ type: "protocol_error" });
    expect(frames[3]).toMatchObject({ id: "on", result: { mode: "all" } });
    await h.module.emit({ type: "visible" });
    const all = await h.frames(5);
    expect(all.map((f) => f.event?.type ?? f.type)).toEqual(["first", "response", "protocol_error", "response", "visible"]);
    expect(all.map((f) => f.sequence)).toEqual([2, 3, 4, 5, 6]);
  });
});
