import { afterEach, describe, expect, it } from "@jest/globals";
import { clipUtf8 } from "../../../core/wire/utf8-clip.js";
import { HeldReply } from "../../support/deferred.js";
import { SessionHarness } from "../../support/session-harness.js";

const never = (): AbortSignal => new AbortController().signal;

describe("clipUtf8", () => {
  it("keeps text that fits and never splits a character", () => {
    expect(clipUtf8("abc", 3)).toEqual({ text: "abc", truncated: false });
    expect(clipUtf8("aé", 2)).toEqual({ text: "a", truncated: true }); // é is 2 bytes
    expect(clipUtf8("aé", 3)).toEqual({ text: "aé", truncated: false });
    expect(clipUtf8("a€", 3)).toEqual({ text: "a", truncated: true }); // € is 3 bytes
    for (let max = 0; max < 9; max++) {
      const { text } = clipUtf8("😀😀", max); // 4 bytes each
      expect(text).toBe("😀".repeat(Math.floor(max / 4)));
    }
  });
});

describe("AgentSession completion watches", () => {
  let harness: SessionHarness;
  afterEach(() => harness?.dispose());

  it("reports the cycle's revision, message count and last reply", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    runtime.respond(runtime.text("the answer"));
    expect(await session.prompt({ delivery: "direct", text: "q", completionId: "c1" })).toEqual({
      delivery: "direct",
      admission: "started",
      completionRevision: 1,
    });
    await expect(session.awaitIdle("c1", never())).resolves.toEqual({
      completionId: "c1",
      completionRevision: 1,
      messageCount: 2,
      completion: { text: "the answer", textTruncated: false, stopReason: "stop" },
    });
    // Idle already: the same answer at once. Without an ID: the generic empty result.
    await expect(session.awaitIdle("c1", never())).resolves.toMatchObject({ completionRevision: 1 });
    await expect(session.awaitIdle(undefined, never())).resolves.toEqual({});
  });

  it("advances the revision for joined input and keeps it for input queued while idle", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    const held = await harness.heldRun({ text: "q", completionId: "c" }, runtime.text("first"), runtime.text("second"));
    expect(await session.prompt({ delivery: "follow_up", text: "more", completionId: "c" })).toEqual({
      delivery: "follow_up",
      admission: "joined",
      completionRevision: 2,
    });
    const watch = session.awaitIdle("c", never());
    held.release();
    await expect(watch).resolves.toEqual({
      completionId: "c",
      completionRevision: 2,
      messageCount: 4,
      completion: { text: "second", textTruncated: false, stopReason: "stop" },
    });
    // Queued while idle: keeps the settled revision, so the client needs no new watch.
    expect(await session.prompt({ delivery: "steer", text: "later", completionId: "c" })).toEqual({
      delivery: "steer",
      admission: "queued",
      completionRevision: 2,
    });
    await expect(session.awaitIdle("c", never())).resolves.toMatchObject({ completionRevision: 2, completion: { text: "second" } });
    // A continue in the same cycle starts work: a newer revision tells the client to watch again.
    runtime.respond(runtime.text("third"));
    expect(await session.prompt({ delivery: "continue", text: "", completionId: "c" })).toMatchObject({ completionRevision: 3 });
    await expect(session.awaitIdle("c", never())).resolves.toMatchObject({ completionRevision: 3, completion: { text: "third" } });
  });

  it("a no-ID prompt that joins work invalidates the earlier watch", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    const held = await harness.heldRun({ text: "q", completionId: "c" }, runtime.text("first"), runtime.text("unrelated"));
    await session.prompt({ delivery: "steer", text: "someone else" });
    const watch = session.awaitIdle("c", never());
    held.release();
    const result = await watch;
    expect(result).toMatchObject({ completionId: "c", completion: null });
  });

  it("a no-ID direct prompt after idle invalidates it too; a queued one does not", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    runtime.respond(runtime.text("mine"), runtime.text("theirs"));
    await session.prompt({ delivery: "direct", text: "q", completionId: "c" });
    await harness.idle();
    await session.prompt({ delivery: "follow_up", text: "queued, no id" });
    await expect(session.awaitIdle("c", never())).resolves.toMatchObject({ completion: { text: "mine" } });
    await session.prompt({ delivery: "direct", text: "other work" });
    await harness.idle();
    await expect(session.awaitIdle("c", never())).resolves.toMatchObject({ completion: null });
  });

  it("a different ID replaces the watch", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    runtime.respond(runtime.text("one"), runtime.text("two"));
    await session.prompt({ delivery: "direct", text: "a", completionId: "c1" });
    await harness.idle();
    await session.prompt({ delivery: "direct", text: "b", completionId: "c2" });
    await harness.idle();
    await expect(session.awaitIdle("c1", never())).resolves.toMatchObject({ completion: null });
    await expect(session.awaitIdle("c2", never())).resolves.toMatchObject({ completionRevision: 2, completion: { text: "two" } });
  });

  it("clips completion text to 50 KiB and errors to 8 KiB without splitting characters", async () => {
    harness = await SessionHarness.create({ faux: { tokenSize: 2048 }, retry: { maxAttempts: 0 } });
    const { runtime, session } = harness;
    const text = "é😀".repeat(10_000); // 6 bytes per pair: 60,000 bytes
    runtime.respond(runtime.text(text));
    await session.prompt({ delivery: "direct", text: "long", completionId: "t" });
    const result = (await session.awaitIdle("t", never())) as { completion: { text: string; textTruncated: boolean } };
    expect(result.completion.textTruncated).toBe(true);
    const bytes = Buffer.byteLength(result.completion.text);
    expect(bytes).toBeLessThanOrEqual(50 * 1024);
    expect(bytes).toBeGreaterThan(50 * 1024 - 4);
    expect(text.startsWith(result.completion.text)).toBe(true);
    expect(result.completion.text).not.toContain("\uFFFD");

    const error = "€".repeat(4000); // 12,000 bytes
    runtime.respond(runtime.error(error));
    await session.prompt({ delivery: "direct", text: "fail", completionId: "t" });
    const failed = (await session.awaitIdle("t", never())) as {
      completion: { text: string; stopReason: string; errorMessage: string; errorTruncated: boolean };
    };
    expect(failed.completion.stopReason).toBe("error");
    expect(failed.completion.text).toBe("");
    expect(failed.completion.errorTruncated).toBe(true);
    expect(failed.completion.errorMessage).toBe("€".repeat(Math.floor(8192 / 3)));
  });

  it("reports an interrupted reply as aborted", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    const held = await harness.heldRun({ text: "q", completionId: "c" }, runtime.text("never"));
    const watch = session.awaitIdle("c", never());
    const interrupted = session.interrupt();
    held.release();
    await interrupted;
    await expect(watch).resolves.toMatchObject({ completion: { stopReason: "aborted", text: "" } });
  });

  it("stops waiting when its signal aborts", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    const held = new HeldReply(runtime.text("x"));
    runtime.respond(held.step);
    await session.prompt({ delivery: "direct", text: "q" });
    const controller = new AbortController();
    const watch = session.awaitIdle("c", controller.signal);
    controller.abort();
    await expect(watch).rejects.toMatchObject({ code: "operation_failed" });
    await expect(session.awaitIdle(undefined, controller.signal)).rejects.toMatchObject({ code: "operation_failed" });
    held.release();
    await harness.idle();
  });
});
