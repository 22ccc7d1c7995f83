import { afterEach, describe, expect, it } from "@jest/globals";
import type * as PiAi from "@mariozechner/pi-ai";
import type { AgentTool } from "../../../core/session/agent-tool.js";
import { Deferred } from "../../support/deferred.js";
import { SessionHarness } from "../../support/session-harness.js";

describe("AgentSession interrupt", () => {
  let harness: SessionHarness;
  afterEach(() => harness?.dispose());

  it("resolves at once while idle", async () => {
    harness = await SessionHarness.create();
    await harness.session.interrupt();
    expect(harness.events).toEqual([]);
  });

  it("aborts a streaming reply and settles to idle", async () => {
    // 1 token of 4 chars per 2 ms: a 2000-character reply streams for about a second.
    harness = await SessionHarness.create({ faux: { tokenSize: 1, tokensPerSecond: 500 } });
    const { runtime, session } = harness;
    runtime.respond(runtime.text("x".repeat(2000)));
    await session.prompt({ delivery: "direct", text: "talk" });
    await harness.next("message_update");
    await session.interrupt();

    const state = session.getState();
    expect(state.activity).toEqual({ type: "idle" });
    const activities = harness.ofType("activity_changed").map((event) => (event.activity as { type: string }).type);
    expect(activities).toEqual(["running", "aborting", "idle"]);
    const reply = harness.messages().at(-1) as PiAi.AssistantMessage;
    expect(reply.stopReason).toBe("aborted");
    expect(harness.ofType("message_update").length).toBeLessThan(500);
    expect(harness.ofType("agent_end")[0]).toEqual({ type: "agent_end", reason: "interrupted" });
  });

  it("aborts a running tool through its signal, and a tool that ignores it is abandoned", async () => {
    const started = new Deferred();
    let sawAbort = false;
    const cooperative: AgentTool = {
      name: "wait",
      description: "waits for abort",
      parameters: { type: "object", properties: {} },
      execute: (_args, context) =>
        new Promise((_resolve, reject) => {
          started.resolve();
          context.signal.addEventListener("abort", () => {
            sawAbort = true;
            reject(new Error("stopped"));
          });
        }),
    };
    const stubborn: AgentTool = {
      name: "stubborn",
      description: "never settles",
      parameters: { type: "object", properties: {} },
      execute: () => new Promise(() => undefined),
    };
    harness = await SessionHarness.create({ tools: [cooperative, stubborn] });
    const { runtime, session } = harness;
    const { piAi } = runtime;
    runtime.respond(
      piAi.fauxAssistantMessage([piAi.fauxToolCall("wait", {}, { id: "w" }), piAi.fauxToolCall("stubborn", {}, { id: "s" })], {
        stopReason: "toolUse",
      }),
    );
    await session.prompt({ delivery: "direct", text: "tools" });
    await started.promise;
    await session.interrupt();
    expect(sawAbort).toBe(true);
    expect(session.getState().activity).toEqual({ type: "idle" });
    const results = harness.messages().filter((message) => message.role === "toolResult") as PiAi.ToolResultMessage[];
    // Every call still has a result: the interrupted one and the skipped one.
    expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
      ["w", true],
      ["s", true],
    ]);
    expect(runtime.callCount).toBe(1);

    // A tool that ignores its signal does not hold the interrupt either.
    runtime.respond(runtime.toolCall("stubborn", {}));
    await session.prompt({ delivery: "direct", text: "again" });
    await harness.next("tool_execution_start", (event) => event.toolName === "stubborn");
    await session.interrupt();
    expect(session.getState().activity).toEqual({ type: "idle" });
  });

  it("cancels a pending retry wait", async () => {
    // A wait this long would outlast the test timeout unless the interrupt cuts it short.
    harness = await SessionHarness.create({ retry: { maxAttempts: 3, baseDelayMs: 600_000, maxDelayMs: 600_000 } });
    const { runtime, session } = harness;
    runtime.respond(runtime.error("server overloaded"));
    await session.prompt({ delivery: "direct", text: "hi" });
    await harness.next("auto_retry_start");
    expect(session.getState().retry).toEqual({ type: "waiting", attempt: 1, maxAttempts: 3, delayMs: 600_000, errorMessage: "server overloaded" });
    await session.interrupt();
    expect(harness.ofType("auto_retry_end")).toEqual([
      { type: "auto_retry_end", success: false, attempt: 1, finalError: "the retry was interrupted" },
    ]);
    expect(session.getState().retry).toEqual({ type: "idle" });
    expect(session.getState().activity).toEqual({ type: "idle" });
    expect(runtime.callCount).toBe(1);
  });

  it("discards queued steering and follow-up input with a queue_update, so none of it runs later", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    const held = await harness.heldRun({ text: "start" }, runtime.text("never"), runtime.text("answered"));
    await session.prompt({ delivery: "steer", text: "steered", completionId: "c1" });
    await session.prompt({ delivery: "follow_up", text: "pending" });
    const interrupted = session.interrupt();
    held.release();
    await interrupted;

    expect(session.getState().queuedInputs).toEqual({ steering: [], followUp: [] });
    const updates = harness.ofType("queue_update");
    expect(updates.at(-1)).toEqual({ type: "queue_update", steering: [], followUp: [] });
    // The discard is announced before the run is told to abort.
    const types = harness.events.map((event) => event.type);
    expect(types.lastIndexOf("queue_update")).toBeLessThan(types.indexOf("agent_end"));
    expect(harness.ofType("agent_end")).toEqual([{ type: "agent_end", reason: "interrupted" }]);
    // Nothing was left to continue with: the next run sees only what is sent now.
    await session.prompt({ delivery: "direct", text: "again" });
    await harness.idle();
    expect(harness.userTexts()).toEqual(["start", "again"]);
  });

  it("discards input queued while idle too, and announces nothing when the queues are empty", async () => {
    harness = await SessionHarness.create();
    const { session } = harness;
    await session.prompt({ delivery: "follow_up", text: "later" });
    expect(session.getState().queuedInputs.followUp).toEqual([{ text: "later" }]);
    await session.interrupt();
    expect(session.getState().queuedInputs.followUp).toEqual([]);
    expect(harness.ofType("queue_update").at(-1)).toEqual({ type: "queue_update", steering: [], followUp: [] });
    const announced = harness.events.length;
    await session.interrupt();
    expect(harness.events.length).toBe(announced);
  });

  it("concurrent interrupts all resolve after the same settlement", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    const held = await harness.heldRun({ text: "start" }, runtime.text("x"));
    const both = Promise.all([session.interrupt(), session.interrupt()]);
    held.release();
    await both;
    expect(session.getState().activity).toEqual({ type: "idle" });
    expect(harness.ofType("activity_changed").map((event) => (event.activity as { type: string }).type)).toEqual([
      "running",
      "aborting",
      "idle",
    ]);
  });

  it("dispose discards queued input, interrupts and rejects later prompts", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    const held = await harness.heldRun({ text: "start" }, runtime.text("x"));
    await session.prompt({ delivery: "follow_up", text: "dropped" });
    const disposed = session.dispose();
    held.release();
    await disposed;
    expect(session.getState().activity).toEqual({ type: "disposed" });
    expect(session.getState().queuedInputs.followUp).toEqual([]);
    await expect(session.prompt({ delivery: "steer", text: "x" })).rejects.toMatchObject({ code: "operation_failed" });
    await expect(session.awaitIdle(undefined, new AbortController().signal)).resolves.toEqual({});
  });
});
