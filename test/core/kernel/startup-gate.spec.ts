// zi/family first: it brings the Reflect polyfill tsyringe needs before any decorated class.
import { RpcMethod, anyValue, type MethodFamily, type RpcHandler } from "../../../core/family/family-api.js";
import { describe, expect, it, jest } from "@jest/globals";
import { serveFamilies, type TestApplication } from "../../../core/testing/testing-api.js";
import { connectionFamily } from "../../../methods/connection/connection.family.js";

const req = (id: string, method: string) => ({ version: 1, id, method });

/** What the handlers report: whether the test had finished the startup when the handler ran. */
const clock = { started: false };

@RpcMethod({ summary: "test method", result: anyValue() })
class NowMethod implements RpcHandler {
  handle() {
    return { started: clock.started };
  }
}

@RpcMethod({ awaitsStartup: true, summary: "test method", result: anyValue() })
class LaterMethod implements RpcHandler {
  handle() {
    return { started: clock.started };
  }
}

/** What the output held when an ordered handler's first continuation ran (before any later turn). */
const seenByOrdered: { ids: unknown[] } = { ids: [] };
let output: TestApplication["output"] | undefined;

@RpcMethod({ summary: "test method", result: anyValue() })
class OrderedMethod implements RpcHandler {
  async handle() {
    await Promise.resolve();
    seenByOrdered.ids = output!.frames().map((frame) => frame.id);
    return {};
  }
}

const gateFamily: MethodFamily = { family: "gate", methods: { "gate.now": NowMethod, "gate.later": LaterMethod, "gate.ordered": OrderedMethod } };

function deferredStartup() {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => ((finish = resolve), (fail = reject)));
  return {
    promise,
    finish: () => {
      clock.started = true;
      finish();
    },
    fail,
  };
}

function harness(startup: Promise<void>, settlementMs?: number): TestApplication {
  clock.started = false;
  return serveFamilies([connectionFamily, gateFamily], { startup, limits: settlementMs === undefined ? {} : { settlementMs } });
}

describe("startup gate (awaitsStartup)", () => {
  it("answers methods that do not await startup at once, while startup never finishes", async () => {
    const h = harness(new Promise(() => undefined));
    h.send(req("a", "gate.now"), req("b", "gate.now"));
    expect(await h.frames(2)).toEqual([
      expect.objectContaining({ id: "a", ok: true, result: { started: false } }),
      expect.objectContaining({ id: "b", ok: true, result: { started: false } }),
    ]);
  });

  it("holds a method that awaits startup, and every record after it, until startup finishes; order is kept", async () => {
    const startup = deferredStartup();
    const h = harness(startup.promise);
    h.send(req("a", "gate.now"), req("b", "gate.later"), req("c", "gate.now"));
    // `a` came before the gate: answered while startup is still pending.
    expect(await h.frames(1)).toEqual([expect.objectContaining({ id: "a", result: { started: false } })]);
    startup.finish();
    // `c` does not await startup itself, but came after `b`: it was held with it, and so ran after startup.
    expect(await h.frames(3)).toEqual([
      expect.objectContaining({ id: "a", result: { started: false } }),
      expect.objectContaining({ id: "b", result: { started: true } }),
      expect.objectContaining({ id: "c", result: { started: true } }),
    ]);
    expect(h.output.frames().map((frame) => frame.sequence)).toEqual([1, 2, 3, 4]);
  });

  it("what was answered before an ordered handler is written before that handler's work goes on (no end-of-turn wait)", async () => {
    const h = harness(new Promise(() => undefined));
    output = h.output;
    seenByOrdered.ids = [];
    h.send(req("a", "gate.now"), req("b", "gate.ordered"));
    expect((await h.frames(2)).map((frame) => frame.id)).toEqual(["a", "b"]);
    expect(seenByOrdered.ids).toContain("a");
  });

  it("admits a method that awaits startup without holding anything once startup has finished", async () => {
    const startup = deferredStartup();
    const h = harness(startup.promise);
    startup.finish();
    await startup.promise;
    h.send(req("b", "gate.later"), req("c", "gate.now"));
    expect(await h.frames(2)).toEqual([
      expect.objectContaining({ id: "b", result: { started: true } }),
      expect.objectContaining({ id: "c", result: { started: true } }),
    ]);
  });

  it("at stdin EOF, waits for startup (loading is progress, not a stall) and answers every record received", async () => {
    // Fake time: many end-of-input watchdog periods pass while startup is pending; none may count as a stall.
    jest.useFakeTimers({ doNotFake: ["nextTick", "setImmediate", "queueMicrotask"] });
    const startup = deferredStartup();
    const h = harness(startup.promise, 5);
    try {
      h.send(req("a", "gate.now"), req("b", "gate.later"), req("c", "gate.now"));
      h.input.end();
      await h.frames(1);
      for (let period = 0; period < 20; period++) await jest.advanceTimersByTimeAsync(5);
    } finally {
      jest.useRealTimers();
    }
    startup.finish();
    expect(await h.exit).toBe(0);
    expect(h.output.frames().slice(1).map((frame) => [frame.id, frame.result])).toEqual([
      ["a", { started: false }],
      ["b", { started: true }],
      ["c", { started: true }],
    ]);
  });

  it("discards a record held at the gate when Zi shuts down first, like any queued input", async () => {
    const startup = deferredStartup();
    const h = harness(startup.promise);
    h.send(req("a", "gate.now"), req("b", "gate.later"));
    await h.frames(1);
    expect(await h.shutdown(143)).toBe(143);
    startup.finish();
    await startup.promise;
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.output.frames().slice(1).map((frame) => frame.id)).toEqual(["a"]);
  });

  it("treats a failed startup as a fault of Zi: logged, nothing held is answered, exit code 1", async () => {
    const startup = deferredStartup();
    const h = harness(startup.promise);
    h.send(req("a", "gate.now"), req("b", "gate.later"), req("c", "gate.now"));
    await h.frames(1);
    startup.fail(new Error("plugin exploded"));
    expect(await h.exit).toBe(1);
    expect(h.logs.join("\n")).toContain("zi: startup failed: Error: plugin exploded");
    expect(h.output.frames().slice(1).map((frame) => frame.id)).toEqual(["a"]);
  });
});
