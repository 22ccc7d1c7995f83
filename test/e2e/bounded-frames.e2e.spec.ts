import { afterEach, describe, expect, it } from "@jest/globals";
import { ZiProcess } from "./support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const MiB = 1024 * 1024;
const frameBytes = (frame: unknown): number => Buffer.byteLength(JSON.stringify(frame));

// Issue 9, finding 2: the steer/follow-up queues are bounded, and what the state and queue_update show
// of them is a bounded projection, so neither can outgrow a record however the queues were filled.
describe("queued input is bounded by count and bytes", () => {
  it("answers capacity beyond maxQueuedInputs, keeps every queue_update small, and get_state readable", async () => {
    const zi = new ZiProcess({ fauxScript: { responses: [{ text: "slow", delayMs: 60_000 }] } });
    const ready = await zi.waitFor((frame) => frame.type === "ready");
    const { maxQueuedInputs, maxQueuedInputBytes, maxQueuedInputPreviewBytes } = ready.limits;
    expect({ maxQueuedInputs, maxQueuedInputBytes, maxQueuedInputPreviewBytes }).toEqual({ maxQueuedInputs: 64, maxQueuedInputBytes: 16 * MiB, maxQueuedInputPreviewBytes: 1024 });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("d", "session.prompt", { delivery: "direct", text: "go" });
    for (let i = 0; i < maxQueuedInputs; i++) {
      const answer = await zi.call(`s${i}`, "session.prompt", { delivery: i % 2 ? "steer" : "follow_up", text: `steer-${String(i).padStart(4, "0")}` });
      expect(answer).toMatchObject({ ok: true, result: { admission: "joined" } });
    }
    for (const delivery of ["steer", "follow_up", "continue"]) {
      const refused = await zi.call(`over-${delivery}`, "session.prompt", { delivery, text: "one more" });
      expect(refused).toMatchObject({ ok: false, error: { code: "capacity", applied: "no" } });
    }
    const state = (await zi.call("st", "session.get_state")).result;
    expect(state.queuedInputs.steering.length + state.queuedInputs.followUp.length).toBe(maxQueuedInputs);
    expect(state.queuedInputs.followUp[0]).toEqual({ text: "steer-0000" });
    await zi.close();
  }, 60_000);

  it("bounds queued bytes; two 8 MiB steers leave queue_update and get_state far below a record", async () => {
    const zi = new ZiProcess({ fauxScript: { responses: [{ text: "slow", delayMs: 60_000 }] } });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("d", "session.prompt", { delivery: "direct", text: "go" });
    const big = "\u00e9".repeat(4 * MiB); // 8 MiB of UTF-8, two bytes a character
    expect((await zi.call("a", "session.prompt", { delivery: "steer", text: big, completionId: "c-a" }, 60_000)).ok).toBe(true);
    expect((await zi.call("b", "session.prompt", { delivery: "follow_up", text: big }, 60_000)).ok).toBe(true);
    const refused = await zi.call("c", "session.prompt", { delivery: "steer", text: "x" });
    expect(refused).toMatchObject({ ok: false, error: { code: "capacity", applied: "no" } });

    const updates = zi.frames.filter((frame) => frame.type === "session_event" && frame.event.type === "queue_update");
    expect(updates.length).toBeGreaterThanOrEqual(2);
    for (const update of updates) expect(frameBytes(update)).toBeLessThan(8 * 1024);
    expect(zi.events("event_omitted")).toEqual([]);
    const state = await zi.call("st", "session.get_state");
    expect(state.ok).toBe(true);
    expect(frameBytes(state)).toBeLessThan(16 * 1024);
    const [steer] = state.result.queuedInputs.steering;
    expect(steer).toEqual({ text: "\u00e9".repeat(512), completionId: "c-a", textTruncated: true, textBytes: 8 * MiB });
    expect(state.result.queuedInputs.followUp[0]).toMatchObject({ textTruncated: true, textBytes: 8 * MiB });
    await zi.close();
  }, 120_000);
});
