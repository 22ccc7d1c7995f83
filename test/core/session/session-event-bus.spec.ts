import { describe, expect, it } from "@jest/globals";
import { SessionEventBus } from "../../../core/session/session-event-bus.js";
import type { SessionState } from "../../../core/wire/session-types.js";
import { Deferred } from "../../support/deferred.js";
import { looseEvent } from "../../support/loose-event.js";

/** A stand-in snapshot: only its identity matters here. */
const stateWith = (marker: number): SessionState => ({ messageCount: marker }) as SessionState;

describe("SessionEventBus", () => {
  it("delivers synchronously while no listener blocks", () => {
    const bus = new SessionEventBus(() => stateWith(0), () => undefined);
    const seen: string[] = [];
    bus.subscribe((event) => void seen.push(event.type));
    void bus.emit(looseEvent({ type: "a" }));
    void bus.emit(looseEvent({ type: "b" }));
    expect(seen).toEqual(["a", "b"]);
    expect(bus.deliveredState).toBeUndefined();
  });

  it("holds later events behind a listener's promise, in order, and resolves emits on acceptance", async () => {
    let marker = 0;
    const bus = new SessionEventBus(() => stateWith(marker), () => undefined);
    const gate = new Deferred();
    const seen: string[] = [];
    bus.subscribe((event) => {
      seen.push(event.type);
      if ((event.type as string) === "slow") return gate.promise;
    });
    marker = 1;
    const slow = bus.emit(looseEvent({ type: "slow" }));
    marker = 2;
    const after = bus.emit(looseEvent({ type: "after" }));
    let acceptedAfter = false;
    void after.then(() => (acceptedAfter = true));
    await Promise.resolve();
    expect(seen).toEqual(["slow"]);
    expect(acceptedAfter).toBe(false);
    // While "slow" is in delivery, readers see the state stamped on it, not the newer one.
    expect(bus.deliveredState?.messageCount).toBe(1);
    gate.resolve();
    await slow;
    await after;
    expect(seen).toEqual(["slow", "after"]);
    await bus.whenDrained();
    expect(bus.deliveredState).toBeUndefined();
  });

  it("reports a failing listener and keeps delivering to the others", async () => {
    const warnings: string[] = [];
    const bus = new SessionEventBus(() => stateWith(0), (message) => warnings.push(message));
    const seen: string[] = [];
    bus.subscribe(() => {
      throw new Error("sync failure");
    });
    bus.subscribe(() => Promise.reject(new Error("async failure")));
    const stop = bus.subscribe((event) => void seen.push(event.type));
    await bus.emit(looseEvent({ type: "one" }));
    stop();
    await bus.emit(looseEvent({ type: "two" }));
    expect(seen).toEqual(["one"]);
    expect(warnings).toEqual([
      "a session event listener failed on one: sync failure",
      "a session event listener failed on one: async failure",
      "a session event listener failed on two: sync failure",
      "a session event listener failed on two: async failure",
    ]);
  });

  it("queues an event emitted by a listener behind the one being delivered", () => {
    const bus = new SessionEventBus(() => stateWith(0), () => undefined);
    const seen: string[] = [];
    bus.subscribe((event) => {
      if ((event.type as string) === "outer") void bus.emit(looseEvent({ type: "inner" }));
      seen.push(`first:${event.type}`);
    });
    bus.subscribe((event) => void seen.push(`second:${event.type}`));
    void bus.emit(looseEvent({ type: "outer" }));
    expect(seen).toEqual(["first:outer", "second:outer", "first:inner", "second:inner"]);
  });

  it("offers without a promise while every listener accepts at once, and with one while a listener holds events back", async () => {
    const bus = new SessionEventBus(() => stateWith(0), () => undefined);
    const gate = new Deferred();
    const seen: string[] = [];
    bus.subscribe((event) => {
      seen.push(event.type);
      if ((event.type as string) === "slow") return gate.promise;
    });
    expect(bus.offer(looseEvent({ type: "fast" }))).toBeUndefined();
    const slow = bus.offer(looseEvent({ type: "slow" }));
    expect(slow).toBeInstanceOf(Promise);
    // Behind the blocked one: queued, and accepted only after it.
    const queued = bus.offer(looseEvent({ type: "queued" }));
    expect(queued).toBeInstanceOf(Promise);
    let acceptedQueued = false;
    void queued!.then(() => (acceptedQueued = true));
    // A whole turn later (every microtask run), the queued event is still waiting for the blocked one.
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(["fast", "slow"]);
    expect(acceptedQueued).toBe(false);
    gate.resolve();
    await slow;
    await queued;
    expect(seen).toEqual(["fast", "slow", "queued"]);
    await bus.whenDrained();
    expect(bus.offer(looseEvent({ type: "again" }))).toBeUndefined();
    expect(bus.deliveredState).toBeUndefined();
  });
});
