import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

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

// Issue 9, findings 3 and 4: every frame fits the 16 MiB record bound by construction.
describe("every frame fits a record", () => {
  it("caps protocol_error details in count and bytes, marking the list truncated", async () => {
    const zi = new ZiProcess();
    const ready = await zi.waitFor((frame) => frame.type === "ready");
    const params: Record<string, number> = {};
    for (let i = 0; i < 400_000; i++) params[`k${i}`] = 1;
    zi.request("bad", "session.get_state", params);
    const error = await zi.waitFor((frame) => frame.type === "protocol_error" && frame.id === "bad", 60_000);
    expect(error.error).toMatchObject({ code: "invalid_request", detailsTruncated: true });
    expect(error.error.details).toHaveLength(ready.limits.maxErrorDetails);
    expect(error.error.details[0]).toEqual({ field: "params.k0", problem: "unknown field" });
    expect(frameBytes(error)).toBeLessThan(ready.limits.maxErrorDetailsBytes + 1024);
    // A short list is not marked.
    zi.request("two", "session.get_state", { a: 1, b: 2 });
    const two = await zi.waitFor((frame) => frame.type === "protocol_error" && frame.id === "two");
    expect(two.error.details).toHaveLength(2);
    expect(two.error).not.toHaveProperty("detailsTruncated");
    await zi.close();
  }, 60_000);

  it("serves a transcript item larger than a record as a stand-in, on events and on its page", async () => {
    // Compaction off: a 2M-token echo would otherwise be compacted (slowly) right after the reply.
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-standin-"));
    writeFileSync(join(home, "settings.json"), JSON.stringify({ compaction: { enabled: false } }));
    const zi = new ZiProcess({ ziHome: home });
    await zi.call("m", "model.select", { provider: "faux", id: "echo" });
    // Legal input: `"` is escaped to two bytes, so the request stays under 16 MiB while its echo
    // reply, once escaped inside its entry_appended event, does not.
    const text = '"'.repeat(8 * MiB - 256);
    await zi.call("p", "session.prompt", { delivery: "direct", text }, 60_000);
    await zi.call("w", "session.await_idle", {}, 120_000);
    for (const frame of zi.frames) expect(frameBytes(frame)).toBeLessThanOrEqual(16 * MiB);
    expect(zi.events().map((event) => event.type)).not.toContain("event_omitted");
    const appended = zi.events("entry_appended").filter((event) => event.entry.type === "message");
    expect(appended).toHaveLength(2);
    const reply = appended[1];
    expect(reply).toMatchObject({ truncated: true, entry: { type: "message", message: { role: "assistant" } } });
    // The event's own JSON; with the frame's header and wrapper it would pass 16 MiB.
    expect(reply.encodedBytes).toBeGreaterThan(16 * MiB - 128);
    const clipped = reply.entry.message.content[0].text as string;
    expect(clipped.length).toBeLessThan(1024 * 1024);
    expect(`Echo: ${text}`.startsWith(clipped)).toBe(true);

    const page = (await zi.call("g", "session.get_messages", { start: 1 }, 60_000)).result;
    expect(page).toMatchObject({ start: 1, total: 2, nextStart: null });
    const [item] = page.messages;
    expect(item).toMatchObject({ index: 1, role: "assistant", truncated: true });
    expect(item.encodedBytes).toBeGreaterThan(8 * MiB);
    expect(`Echo: ${text}`.startsWith(item.content[0].text)).toBe(true);
    // The user message alone exceeds a page too: it is served on its own page, then paging goes on.
    const first = (await zi.call("g0", "session.get_messages", {}, 60_000)).result;
    expect(first.messages.map((message: any) => message.index)).toEqual([0]);
    expect(first.nextStart).toBe(1);
    await zi.close();
  }, 240_000);
});
