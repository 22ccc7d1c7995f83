import { afterEach, describe, expect, it } from "@jest/globals";
import type * as PiAi from "@mariozechner/pi-ai";
import type { AgentTool } from "../../../core/session/agent-tool.js";
import { HeldReply } from "../../support/deferred.js";
import { SessionHarness, textOf } from "../../support/session-harness.js";

const noop: AgentTool = {
  name: "noop",
  description: "does nothing",
  parameters: { type: "object", properties: {} },
  async execute() {
    return { content: [{ type: "text", text: "nothing" }] };
  },
};

const lastUserText = (context: PiAi.Context): string => {
  const users = context.messages.filter((message) => message.role === "user");
  return textOf(users.at(-1)!);
};

describe("AgentSession deliveries", () => {
  let harness: SessionHarness;
  afterEach(() => harness?.dispose());

  it("rejects direct while running and empty text except for continue", async () => {
    harness = await SessionHarness.create();
    const held = new HeldReply(harness.runtime.text("slow"));
    harness.runtime.respond(held.step);
    await expect(harness.session.prompt({ delivery: "steer", text: "" })).rejects.toMatchObject({ code: "operation_failed" });
    expect(await harness.session.prompt({ delivery: "direct", text: "first" })).toEqual({ delivery: "direct", admission: "started" });
    await held.called.promise;
    await expect(harness.session.prompt({ delivery: "direct", text: "second" })).rejects.toMatchObject({
      code: "operation_failed",
      message: "session is running; use steer, follow_up or continue",
    });
    held.release();
    await harness.idle();
    expect(harness.userTexts()).toEqual(["first"]);
  });

  it("rejects direct and continue without a model", async () => {
    harness = await SessionHarness.create({ model: null });
    await expect(harness.session.prompt({ delivery: "direct", text: "x" })).rejects.toMatchObject({ code: "operation_failed" });
    await expect(harness.session.prompt({ delivery: "continue", text: "x" })).rejects.toMatchObject({ code: "operation_failed" });
    expect(await harness.session.prompt({ delivery: "steer", text: "later" })).toEqual({ delivery: "steer", admission: "queued" });
  });

  it("joins steer after the current turn's tools and follow-up when the agent would stop", async () => {
    harness = await SessionHarness.create({ tools: [noop] });
    const { runtime, session } = harness;
    const held = await harness.heldRun({ text: "start" }, runtime.toolCall("noop", {}), runtime.text("after steer"), runtime.text("after follow-up"));

    expect(await session.prompt({ delivery: "follow_up", text: "F" })).toEqual({ delivery: "follow_up", admission: "joined" });
    expect(await session.prompt({ delivery: "steer", text: "S" })).toEqual({ delivery: "steer", admission: "joined" });
    expect(session.getState().queuedInputs).toEqual({ steering: [{ text: "S" }], followUp: [{ text: "F" }] });
    expect(harness.ofType("queue_update").at(-1)).toEqual({ type: "queue_update", steering: [{ text: "S" }], followUp: [{ text: "F" }] });

    held.release();
    await harness.idle();
    expect(harness.userTexts()).toEqual(["start", "S", "F"]);
    // Steering came after the tool result, in the next turn; follow-up only after the model stopped.
    expect(runtime.contexts[1].messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "user"]);
    expect(lastUserText(runtime.contexts[1])).toBe("S");
    expect(lastUserText(runtime.contexts[2])).toBe("F");
    expect(textOf(runtime.contexts[2].messages.at(-2)!)).toBe("after steer");
    expect(session.getState().queuedInputs).toEqual({ steering: [], followUp: [] });
    expect(harness.ofType("agent_start")).toHaveLength(1);
  });

  it("queues steer and follow_up while idle for the next direct prompt", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    expect(await session.prompt({ delivery: "steer", text: "S" })).toEqual({ delivery: "steer", admission: "queued" });
    expect(await session.prompt({ delivery: "follow_up", text: "F" })).toEqual({ delivery: "follow_up", admission: "queued" });
    expect(runtime.callCount).toBe(0);
    expect(session.getState().activity).toEqual({ type: "idle" });
    expect(session.getState().queuedInputs).toEqual({ steering: [{ text: "S" }], followUp: [{ text: "F" }] });

    runtime.respond(runtime.text("r1"), runtime.text("r2"));
    await harness.ask("direct");
    // The direct text first, the queued steering with it in the first turn, the follow-up after.
    expect(harness.userTexts()).toEqual(["direct", "S", "F"]);
    expect(runtime.contexts[0].messages.map(textOf)).toEqual(["direct", "S"]);
    expect(runtime.callCount).toBe(2);
  });

  it("continue while idle starts a run, with or without text", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    runtime.respond(runtime.text("r1"), runtime.text("r2"), runtime.text("r3"));
    expect(await session.prompt({ delivery: "continue", text: "go on" })).toEqual({ delivery: "continue", admission: "started" });
    await harness.idle();
    // Nothing new to answer: the last message is the model's finished reply.
    await expect(session.prompt({ delivery: "continue", text: "" })).rejects.toMatchObject({ code: "operation_failed" });
    // Queued input makes an empty continue meaningful: it delivers it.
    await session.prompt({ delivery: "follow_up", text: "queued" });
    expect(await session.prompt({ delivery: "continue", text: "" })).toEqual({ delivery: "continue", admission: "started" });
    await harness.idle();
    expect(harness.userTexts()).toEqual(["go on", "queued"]);
    expect(runtime.callCount).toBe(2);
  });

  it("continue while running queues a follow-up into the active run", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    const held = await harness.heldRun({ text: "start" }, runtime.text("r1"), runtime.text("r2"));
    expect(await session.prompt({ delivery: "continue", text: "more" })).toEqual({ delivery: "continue", admission: "joined" });
    expect(session.getState().queuedInputs.followUp).toEqual([{ text: "more" }]);
    // An empty continue joins without queueing anything.
    expect(await session.prompt({ delivery: "continue", text: "" })).toEqual({ delivery: "continue", admission: "joined" });
    held.release();
    await harness.idle();
    expect(harness.userTexts()).toEqual(["start", "more"]);
  });

  it("one-at-a-time delivers one queued follow-up per stop, all delivers them together", async () => {
    for (const mode of ["one-at-a-time", "all"] as const) {
      harness = await SessionHarness.create({ settings: { followUpMode: mode, steeringMode: mode } });
      const { runtime, session } = harness;
      const held = await harness.heldRun({ text: "start" }, runtime.text("r1"), runtime.text("r2"), runtime.text("r3"), runtime.text("r4"));
      for (const text of ["a", "b", "c"]) await session.prompt({ delivery: "follow_up", text });
      held.release();
      await harness.idle();
      expect(harness.userTexts()).toEqual(["start", "a", "b", "c"]);
      expect(runtime.callCount).toBe(mode === "all" ? 2 : 4);
      expect(session.getState().steeringMode).toBe(mode);
      harness.dispose();
    }
  });

  it("one-at-a-time steering is delivered one per turn", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    const held = await harness.heldRun({ text: "start" }, runtime.text("r1"), runtime.text("r2"), runtime.text("r3"));
    await session.prompt({ delivery: "steer", text: "s1" });
    await session.prompt({ delivery: "steer", text: "s2" });
    held.release();
    await harness.idle();
    expect(runtime.contexts.map(lastUserText)).toEqual(["start", "s1", "s2"]);
  });

  it("steer admitted while aborting is queued for a future turn", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    const held = await harness.heldRun({ text: "start" }, runtime.text("never seen"));
    const interrupted = session.interrupt();
    expect(session.getState().activity).toEqual({ type: "aborting" });
    expect(await session.prompt({ delivery: "steer", text: "late" })).toEqual({ delivery: "steer", admission: "queued" });
    await expect(session.prompt({ delivery: "continue", text: "x" })).rejects.toMatchObject({ code: "operation_failed" });
    held.release();
    await interrupted;
    expect(session.getState().queuedInputs.steering).toEqual([{ text: "late" }]);
  });
});
