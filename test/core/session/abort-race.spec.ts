import { describe, expect, it } from "@jest/globals";
import { AbortRace } from "../../../core/session/abort-race.js";

describe("AbortRace", () => {
  it("settles with the work's value or its failure", async () => {
    const signal = new AbortController().signal;
    expect(await new AbortRace(signal).run(async () => 7)).toEqual({ type: "done", value: 7 });
    const error = new Error("boom");
    expect(await new AbortRace(signal).run(() => Promise.reject(error))).toEqual({ type: "failed", error });
    expect(await new AbortRace(signal).run(() => {
      throw error;
    })).toEqual({ type: "failed", error });
  });

  it("stops waiting for work that ignores the signal, and reports settled from then on", async () => {
    const controller = new AbortController();
    const race = new AbortRace(controller.signal);
    const outcome = race.run(() => new Promise(() => {}));
    expect(race.settled).toBe(false);
    controller.abort();
    expect(await outcome).toEqual({ type: "aborted" });
    expect(race.settled).toBe(true);
  });

  it("does not start work on a signal that is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    let started = false;
    expect(await new AbortRace(controller.signal).run(() => (started = true))).toEqual({ type: "aborted" });
    expect(started).toBe(false);
  });
});
