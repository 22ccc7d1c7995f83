import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

/** A fresh ZI_HOME whose settings keep as little whole as they may (1,024 tokens, about 4 KB). */
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), "zi-e2e-compact-"));
  writeFileSync(join(dir, "settings.json"), JSON.stringify({ compaction: { keepRecentTokens: 1024 } }));
  return dir;
}

/** About 1,250 tokens: its echo alone fills what is kept, so the prompt before it is summarised. */
const LONG = `first question ${"word ".repeat(1000)}`;

describe("session.compact over RPC (the offline echo model)", () => {
  it("compacts on request with the client's instructions: a compaction entry, the manual events, the transcript kept", async () => {
    const zi = new ZiProcess({ ziHome: home() });
    await zi.call("m", "model.select", { provider: "faux", id: "echo" });
    for (const text of [LONG, "second question"]) {
      await zi.call(`p-${text.length}`, "session.prompt", { delivery: "direct", text });
      await zi.call(`w-${text.length}`, "session.await_idle", {});
    }
    const compacted = await zi.call("c", "session.compact", { instructions: "stress the word PINEAPPLE" });
    expect(compacted).toMatchObject({ ok: true });
    // The echo model repeats the summariser's prompt: the transcript and the instructions reached it.
    const { summary, firstKeptEntryId, tokensBefore } = compacted.result;
    expect(summary).toContain("[User]: first question");
    expect(summary).toMatch(/Additional instructions from the user for this summary:\nstress the word PINEAPPLE/);
    expect(tokensBefore).toBeGreaterThan(0);
    expect(zi.events("compaction_start").at(-1)).toMatchObject({ reason: "manual" });
    expect(zi.events("compaction_end").at(-1)).toMatchObject({ reason: "manual", summary });
    const tree = (await zi.call("t", "session.get_tree", {})).result;
    const entry = tree.entries.find((candidate: any) => candidate.type === "compaction");
    expect(entry).toBeDefined();
    expect(tree.entries.some((candidate: any) => candidate.id === firstKeptEntryId)).toBe(true);
    // The transcript pages keep every message; the state is idle again.
    const state = (await zi.call("s", "session.get_state")).result;
    expect(state).toMatchObject({ activity: { type: "idle" }, compaction: { type: "idle" }, messageCount: 4 });
    expect(zi.problems).toEqual([]);
  }, 60000);

  it("refuses with the reason: nothing to compact, no model, bad params; while a run goes on", async () => {
    const zi = new ZiProcess({ ziHome: home(), fauxScript: { responses: [{ text: "slow ".repeat(200), tokensPerSecond: 20 }] } });
    const noModel = await zi.call("n", "session.compact", {});
    expect(noModel).toMatchObject({ ok: false, error: { code: "operation_failed" } });
    zi.request("e", "session.compact", { instructions: "" });
    const invalid = await zi.waitFor((frame) => frame.type === "protocol_error" && frame.id === "e");
    expect(invalid.error).toMatchObject({ code: "invalid_request", details: [{ field: "params.instructions" }] });
    await zi.call("m", "model.select", { provider: "faux", id: "echo" });
    const empty = await zi.call("c0", "session.compact");
    expect(empty).toMatchObject({ ok: false, error: { code: "operation_failed", message: expect.stringContaining("nothing to compact") } });
    await zi.call("m2", "model.select", { provider: "faux", id: "scripted" });
    await zi.call("p", "session.prompt", { delivery: "direct", text: "go" });
    const busy = await zi.call("c1", "session.compact");
    expect(busy).toMatchObject({ ok: false, error: { code: "operation_failed", message: expect.stringContaining("wait until it is idle") } });
    await zi.call("i", "session.interrupt");
    expect(zi.problems).toEqual([]);
  }, 60000);
});
