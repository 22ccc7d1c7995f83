import { afterEach, describe, expect, it } from "@jest/globals";
import { memoryOf, sleep } from "../support/tool-processes.js";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

async function startSlowRun(zi: ZiProcess): Promise<void> {
  expect((await zi.call("m", "model.select", { provider: "faux", id: "scripted" })).ok).toBe(true);
  expect((await zi.call("p", "session.prompt", { delivery: "direct", text: "go" })).result.admission).toBe("started");
}

describe("zi --mode rpc as a black box: admission", () => {
  it("admits 32 waiting requests, answers the 33rd capacity, lets an interrupt through the reserved slot", async () => {
    const zi = new ZiProcess({ fauxScript: { responses: [{ text: "slow", delayMs: 20000 }] } });
    await startSlowRun(zi);
    for (let i = 0; i < 33; i++) zi.request(`w${i}`, "session.await_idle");
    const capacity = await zi.waitFor((f) => f.id === "w32");
    expect(capacity).toMatchObject({ type: "response", ok: false, error: { code: "capacity", applied: "no" } });
    const stateRefused = await zi.call("st", "session.get_state");
    expect(stateRefused).toMatchObject({ ok: false, error: { code: "capacity" } });
    // One write: i2 is admitted right after i1, before i1's interruption can settle and free its slot.
    zi.send({ version: 1, id: "i1", method: "session.interrupt" }, { version: 1, id: "i2", method: "session.interrupt" });
    const second = await zi.waitFor((f) => f.id === "i2");
    expect(second).toMatchObject({ ok: false, error: { code: "capacity" } });
    const first = await zi.waitFor((f) => f.id === "i1");
    expect(first).toMatchObject({ ok: true, result: {} });
    for (let i = 0; i < 32; i++) expect(await zi.waitFor((f) => f.id === `w${i}`)).toMatchObject({ ok: true, result: {} });
    expect((await zi.close()).code).toBe(0);
  });

  it("refuses a duplicate in-flight id without launching it, and accepts the id again after its response", async () => {
    const zi = new ZiProcess({ fauxScript: { responses: [{ text: "slow", delayMs: 20000 }] } });
    await startSlowRun(zi);
    zi.request("dup", "session.await_idle");
    zi.request("dup", "session.interrupt");
    const refusal = await zi.waitFor((f) => f.type === "protocol_error" && f.id === "dup");
    expect(refusal).toMatchObject({ error: { code: "invalid_request" }, fatal: false });
    // A launched interrupt would have left `running` at its admission; an ordered request admitted after
    // the refusal observes the state that admission left.
    expect((await zi.call("probe", "session.get_state")).result.activity).toEqual({ type: "running" });
    expect(zi.events("activity_changed").map((e) => e.activity.type)).toEqual(["running"]);
    await zi.call("stop", "session.interrupt");
    expect(await zi.waitFor((f) => f.type === "response" && f.id === "dup")).toMatchObject({ ok: true });
    expect((await zi.call("dup", "session.get_state")).ok).toBe(true);
    await zi.close();
  });

  it("connection.set_events none hides session events only; all brings them back", async () => {
    const zi = new ZiProcess();
    await zi.call("m", "model.select", { provider: "faux", id: "echo" });
    expect((await zi.call("off", "connection.set_events", { mode: "none" })).result).toEqual({ mode: "none" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "quiet", completionId: "c" });
    const idle = await zi.call("w", "session.await_idle", { completionId: "c" });
    expect(idle.result.completion.text).toContain("quiet");
    const hiddenFrom = zi.frames.findIndex((f) => f.id === "off");
    expect(zi.frames.slice(hiddenFrom).filter((f) => f.type === "session_event")).toEqual([]);
    await zi.call("on", "connection.set_events", { mode: "all" });
    await zi.call("p2", "session.prompt", { delivery: "direct", text: "loud" });
    await zi.waitFor((f) => f.type === "session_event" && f.event.type === "agent_end");
    await zi.close();
  });

  it("stalls instead of growing when the client stops reading, and loses nothing once it reads again", async () => {
    // ~100k streamed deltas: far more output than the 1,024-record / 32 MiB pending bound.
    const text = "abcd".repeat(100_000);
    const zi = new ZiProcess({ fauxScript: { responses: [{ text, tokensPerSecond: 1e9 }] } });
    await zi.call("m", "model.select", { provider: "faux", id: "scripted" });
    const idleRss = memoryOf(zi.child.pid!).rss;
    zi.child.stdout.pause();
    zi.request("p", "session.prompt", { delivery: "direct", text: "go", completionId: "flood" });
    zi.request("w", "session.await_idle", { completionId: "flood" });
    let peak = 0;
    for (let i = 0; i < 20; i++) {
      await sleep(100);
      peak = Math.max(peak, memoryOf(zi.child.pid!).rss);
    }
    const framesWhilePaused = zi.frames.length;
    expect(peak - idleRss).toBeLessThan(64 * 1024 * 1024);
    zi.child.stdout.resume();
    const done = await zi.waitFor((f) => f.id === "w", 120000);
    expect(framesWhilePaused).toBeLessThan(zi.frames.length);
    expect(done.result.completion.textTruncated).toBe(true);
    const deltas = zi.events("message_update").map((e) => e.assistantMessageEvent.delta).join("");
    expect(deltas).toBe(text);
    expect((await zi.close()).code).toBe(0);
  }, 180000);
});
