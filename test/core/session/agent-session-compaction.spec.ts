import { afterEach, describe, expect, it } from "@jest/globals";
import type { CompactionEntry } from "../../../core/journal/journal-view-types.js";
import { HeldReply } from "../../support/deferred.js";
import { SessionHarness, textOf } from "../../support/session-harness.js";

const TINY = [{ id: "tiny", name: "Tiny", reasoning: false, contextWindow: 2000, maxTokens: 100 }];

const compactions = (harness: SessionHarness): CompactionEntry[] =>
  [...harness.journal.entries()].filter((entry): entry is CompactionEntry => entry.type === "compaction");

describe("AgentSession compaction", () => {
  let harness: SessionHarness;
  afterEach(() => harness?.dispose());

  it("compacts after a turn once usage passes contextWindow - reserveTokens", async () => {
    harness = await SessionHarness.create({
      faux: { models: TINY, tokenSize: 64 },
      model: "tiny",
      compaction: { enabled: true, reserveTokens: 1000, keepRecentTokens: 50 },
    });
    const { runtime, session } = harness;
    runtime.respond(runtime.text("r1"), runtime.text("r2"), runtime.text("SUMMARY OF EARLY WORK"), runtime.text("r3"));
    await harness.ask("short question");
    expect(harness.ofType("compaction_start")).toEqual([]);
    expect(session.getState().contextUsage.type).toBe("available");

    await harness.ask("B".repeat(4400)); // about 1100 tokens: past 2000 - 1000
    expect(harness.ofType("compaction_start")).toEqual([{ type: "compaction_start", reason: "threshold" }]);
    expect(harness.ofType("compaction_end")).toEqual([{ type: "compaction_end", reason: "threshold", summary: "SUMMARY OF EARLY WORK" }]);
    const activities = harness.ofType("activity_changed").map((event) => (event.activity as { type: string }).type);
    expect(activities.slice(-4)).toEqual(["running", "compacting", "running", "idle"]);

    // The summary call saw the older messages as a transcript, without tools.
    const summaryCall = runtime.contexts[2];
    expect(summaryCall.tools).toBeUndefined();
    expect(summaryCall.messages).toHaveLength(1);
    expect(textOf(summaryCall.messages[0])).toContain("[User]: short question");
    expect(textOf(summaryCall.messages[0])).not.toContain("BBBB");

    const [entry] = compactions(harness);
    const kept = harness.journal.getEntry(entry.firstKeptEntryId);
    expect(kept?.type === "message" && textOf(kept.message)).toBe("B".repeat(4400));
    expect(entry.tokensBefore).toBeGreaterThan(1000);
    expect(session.getState().contextUsage).toEqual({ type: "unavailable", reason: "no_usage" });
    expect(session.getState().compaction).toEqual({ type: "idle" });
    // Pages keep the whole transcript.
    expect(session.getState().messageCount).toBe(4);

    await harness.ask("next");
    const next = runtime.contexts[3];
    expect(textOf(next.messages[0])).toContain("SUMMARY OF EARLY WORK");
    expect(next.messages.slice(1).map(textOf)).toEqual(["B".repeat(4400), "r2", "next"]);
  });

  it("compacts on context overflow and retries the call once", async () => {
    harness = await SessionHarness.create({ compaction: { enabled: true, keepRecentTokens: 1 } });
    const { runtime, session } = harness;
    runtime.respond(runtime.text("r1"), runtime.error("prompt exceeds context length"), runtime.text("SUMMARY"), runtime.text("recovered"));
    await harness.ask("first");
    await harness.ask("second");
    expect(harness.ofType("compaction_start")).toEqual([{ type: "compaction_start", reason: "overflow" }]);
    expect(harness.ofType("compaction_end")).toEqual([{ type: "compaction_end", reason: "overflow", summary: "SUMMARY" }]);
    expect(runtime.callCount).toBe(4);
    expect(session.getState().activity).toEqual({ type: "idle" });
    const retried = runtime.contexts[3];
    expect(retried.messages.map(textOf)).toEqual([expect.stringContaining("SUMMARY"), "second"]);
    expect(textOf(harness.messages().at(-1)!)).toBe("recovered");
  });

  it("fails the run when an overflow leaves nothing to compact", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    runtime.respond(runtime.error("context length exceeded"), runtime.text("unused"));
    await harness.ask("only message");
    const [end] = harness.ofType("compaction_end");
    expect(end.reason).toBe("overflow");
    expect(end.errorMessage).toMatch(/nothing to compact/);
    expect(compactions(harness)).toEqual([]);
    expect(session.getState().activity).toEqual({ type: "failed", errorMessage: "context length exceeded" });
    expect(runtime.callCount).toBe(1);
  });

  it("compacts manually while idle, and an interrupt aborts a compaction", async () => {
    harness = await SessionHarness.create({ compaction: { enabled: true, keepRecentTokens: 1 } });
    const { runtime, session } = harness;
    runtime.respond(runtime.text("r1"), runtime.text("r2"), runtime.text("MANUAL SUMMARY"), runtime.text("r3"));
    await harness.ask("one");
    await harness.ask("two");
    const result = await session.compact("keep the names");
    const [entry] = compactions(harness);
    expect(result).toEqual({ summary: "MANUAL SUMMARY", firstKeptEntryId: entry!.firstKeptEntryId, tokensBefore: entry!.tokensBefore });
    // The instructions reach the summariser, after its own.
    expect(textOf(runtime.contexts[2].messages[0])).toMatch(/Additional instructions from the user for this summary:\nkeep the names$/);
    expect(harness.ofType("compaction_end").at(-1)).toEqual({ type: "compaction_end", reason: "manual", summary: "MANUAL SUMMARY" });
    expect(session.getState().activity).toEqual({ type: "idle" });

    await harness.ask("three");
    const held = new HeldReply(runtime.text("never"));
    runtime.respond(held.step);
    const compacting = session.compact();
    await held.called.promise;
    expect(session.getState().activity).toEqual({ type: "compacting" });
    expect(session.getState().compaction).toEqual({ type: "compacting", reason: "manual" });
    const interrupted = session.interrupt();
    held.release();
    await interrupted;
    await expect(compacting).rejects.toMatchObject({ code: "operation_failed", message: "the compaction was interrupted" });
    expect(harness.ofType("compaction_end").at(-1)).toEqual({ type: "compaction_end", reason: "manual", aborted: true });
    expect(compactions(harness)).toHaveLength(1);
    expect(session.getState().activity).toEqual({ type: "idle" });
  });

  it("a manual compaction with nothing old enough says so and writes nothing", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    runtime.respond(runtime.text("r1"));
    await harness.ask("only one");
    await expect(session.compact()).rejects.toMatchObject({ code: "operation_failed", message: expect.stringMatching(/^nothing was compacted: nothing to compact/) });
    expect(compactions(harness)).toEqual([]);
    expect(session.getState().activity).toEqual({ type: "idle" });
  });

  it("an interrupt during an in-run compaction ends the run without reverting to running", async () => {
    harness = await SessionHarness.create({
      faux: { models: TINY, tokenSize: 64 },
      model: "tiny",
      compaction: { enabled: true, reserveTokens: 1000, keepRecentTokens: 50 },
    });
    const { runtime, session } = harness;
    const held = new HeldReply(runtime.text("never used"));
    runtime.respond(runtime.text("r1"), runtime.text("r2"), held.step);
    await harness.ask("short question");
    await session.prompt({ delivery: "direct", text: "B".repeat(4400) });
    await held.called.promise;
    expect(session.getState().activity).toEqual({ type: "compacting" });
    await expect(session.prompt({ delivery: "continue", text: "x" })).rejects.toMatchObject({ code: "operation_failed" });
    expect(await session.prompt({ delivery: "steer", text: "joins" })).toMatchObject({ admission: "joined" });
    const interrupted = session.interrupt();
    held.release();
    await interrupted;
    expect(harness.ofType("compaction_end")).toEqual([{ type: "compaction_end", reason: "threshold", aborted: true }]);
    const activities = harness.ofType("activity_changed").map((event) => (event.activity as { type: string }).type);
    expect(activities.slice(-3)).toEqual(["compacting", "aborting", "idle"]);
    expect(harness.ofType("agent_end").at(-1)).toEqual({ type: "agent_end", reason: "interrupted" });
    expect(compactions(harness)).toEqual([]);
  });
});
