import { afterEach, describe, expect, it } from "@jest/globals";
import type { AgentTool } from "../../../core/session/agent-tool.js";
import type { AgentSessionEvent, SessionState } from "../../../core/wire/session-types.js";
import { Deferred } from "../../support/deferred.js";
import { SessionHarness, textOf } from "../../support/session-harness.js";
import { reduceState } from "../../support/state-reducer.js";
import { SPEC_READY_STATE } from "../../support/spec-ready-state.js";

describe("state and event consistency", () => {
  let harness: SessionHarness;
  afterEach(() => harness?.dispose());

  it("folding the events over an earlier snapshot reproduces getState() at every event", async () => {
    harness = await SessionHarness.create({ model: null, settings: { thinkingLevel: "high" } });
    const { runtime, session } = harness;
    const planTool: AgentTool = {
      name: "plan",
      description: "records a plan, a note and an outcome",
      parameters: { type: "object", properties: {} },
      async execute() {
        session.replaceWorkPlan([{ title: "step one", status: "in_progress" }]);
        session.sendCustomMessage({ customType: "note", content: "shown", display: true });
        session.sendCustomMessage({ customType: "note", content: "hidden", display: false });
        session.recordOutcome({ operationId: "op-1", capability: "test", operation: "plan", result: "ok", durationMs: 3 });
        // A model change in the middle of a run applies to the next call and clamps thinking.
        await session.models.select("faux", "plain");
        return { content: [{ type: "text", text: "planned" }] };
      },
    };
    session.registerTool(planTool);

    const start = session.getState();
    let folded: SessionState = start;
    const mismatches: string[] = [];
    session.subscribe((event: AgentSessionEvent) => {
      folded = reduceState(folded, event);
      const actual = session.getState();
      if (JSON.stringify(actual) !== JSON.stringify(folded)) mismatches.push(`${event.type}: ${JSON.stringify(actual)} vs ${JSON.stringify(folded)}`);
    });

    await session.models.select("faux", "thinker");
    await session.thinking.select("medium", undefined);
    const held = await harness.heldRun({ text: "go", completionId: "c" }, runtime.toolCall("plan", {}), runtime.error("overloaded"), runtime.text("after steer"), runtime.text("after follow-up"));
    await session.prompt({ delivery: "steer", text: "s" });
    await session.prompt({ delivery: "follow_up", text: "f" });
    held.release();
    await harness.idle();
    session.appendCustomEntry("marker", { n: 1 });

    expect(mismatches).toEqual([]);
    expect(folded).toEqual(session.getState());
    // The scenario really moved every part of the state.
    const final = session.getState();
    expect(final.model).toMatchObject({ type: "selected", id: "plain" });
    expect(final.thinkingLevel).toBe("off");
    expect(final.workPlan).toEqual({ revision: 1, steps: [{ title: "step one", status: "in_progress" }] });
    expect(final.messageCount).toBe(start.messageCount + 9); // 3 user, 4 assistant, 1 tool result, 1 shown note
    expect(final.contextUsage.type).toBe("available");
    expect(harness.ofType("auto_retry_start")).toHaveLength(1);
    expect(harness.ofType("queue_update").length).toBeGreaterThanOrEqual(4);
    expect(harness.ofType("thinking_level_changed").map((event) => event.thinkingLevel)).toEqual(["high", "medium", "off"]);
  });

  it("a listener that blocks stalls the model stream; nothing is dropped and state never runs ahead", async () => {
    harness = await SessionHarness.create({ faux: { tokenSize: 1 } });
    const { runtime, session } = harness;
    const reply = "abcdefghij".repeat(20); // 200 characters, 50 deltas
    runtime.respond(runtime.text(reply), runtime.text("steered"));

    const gate = new Deferred();
    const blocked = new Deferred();
    let updates = 0;
    session.subscribe((event) => {
      if (event.type !== "message_update") return;
      updates++;
      if (updates === 3) {
        blocked.resolve();
        return gate.promise;
      }
    });
    const start = session.getState();
    await session.prompt({ delivery: "direct", text: "stream" });
    await blocked.promise;
    const seen = harness.events.length;
    // Long enough for the faux provider to have produced its whole reply.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(harness.events.length).toBe(seen);
    expect(harness.messages().map((message) => message.role)).toEqual(["user"]);

    // Admission still works while output is stalled; its event waits its turn, and so does the state.
    expect(await session.prompt({ delivery: "steer", text: "s" })).toEqual({ delivery: "steer", admission: "joined" });
    expect(session.getState().queuedInputs.steering).toEqual([]);
    expect(harness.events.length).toBe(seen);

    gate.resolve();
    await harness.idle();
    const deltas = harness
      .ofType("message_update")
      .map((event) => (event.assistantMessageEvent as { delta: string }).delta)
      .join("");
    expect(deltas).toBe(`${reply}steered`);
    expect(harness.userTexts()).toEqual(["stream", "s"]);
    expect(textOf(harness.messages().at(-1)!)).toBe("steered");
    // The queue_update of the steer came right after the event that was blocked.
    const queueIndex = harness.events.findIndex((event) => event.type === "queue_update");
    expect(harness.events.slice(0, queueIndex).filter((event) => event.type === "message_update")).toHaveLength(3);
    expect(harness.events.reduce(reduceState, start)).toEqual(session.getState());
  });

  it("an idle answer is held until the events that settled the session were delivered", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    runtime.respond(runtime.text("ok"));
    const gate = new Deferred();
    session.subscribe((event) => (event.type === "agent_end" ? gate.promise : undefined));
    await session.prompt({ delivery: "direct", text: "q", completionId: "c" });
    let answered = false;
    const watch = session.awaitIdle("c", new AbortController().signal).then((result) => ((answered = true), result));
    await harness.next("agent_end");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    // A reader sees the state as of agent_end: the idle activity has not been delivered yet.
    expect(session.getState().activity).toEqual({ type: "running" });
    gate.resolve();
    await expect(watch).resolves.toMatchObject({ completionId: "c", completion: { text: "ok" } });
    expect(harness.events.at(-1)).toEqual({ type: "activity_changed", activity: { type: "idle" } });
  });

  it("the initial state is the spec's ready example", async () => {
    harness = await SessionHarness.create({ model: null });
    expect(harness.session.getState()).toEqual({ sessionId: "session-test", ...SPEC_READY_STATE });
  });
});
