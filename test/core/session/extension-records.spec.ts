import { afterEach, describe, expect, it } from "@jest/globals";
import { SessionHarness } from "../../support/session-harness.js";

describe("extension-facing session operations", () => {
  let harness: SessionHarness;
  afterEach(() => harness?.dispose());

  it("appends custom entries and announces them", async () => {
    harness = await SessionHarness.create();
    const entry = harness.session.appendCustomEntry("my-ext", { count: 1 });
    expect(entry).toMatchObject({ type: "custom", customType: "my-ext", data: { count: 1 } });
    expect(harness.events).toEqual([{ type: "entry_appended", entry }]);
    expect(harness.session.getState().messageCount).toBe(0);
    expect(() => harness.session.appendCustomEntry("")).toThrow(expect.objectContaining({ code: "operation_failed" }));
  });

  it("sends custom messages: displayed ones are paged, hidden ones only reach the model", async () => {
    harness = await SessionHarness.create();
    const { session, runtime } = harness;
    session.sendCustomMessage({ customType: "note", content: "visible note", display: true, details: { a: 1 } });
    session.sendCustomMessage({ customType: "note", content: "hidden note", display: false });
    expect(session.getState().messageCount).toBe(1);
    expect(session.getMessages(0, 100).messages).toEqual([
      expect.objectContaining({ index: 0, role: "custom", customType: "note", content: "visible note", details: { a: 1 } }),
    ]);
    runtime.respond(runtime.text("ok"));
    await harness.ask("hi");
    const seen = runtime.contexts[0].messages.map((message) => (Array.isArray(message.content) ? message.content.map((block) => (block.type === "text" ? block.text : "")).join("") : message.content));
    expect(seen).toEqual(["visible note", "hidden note", "hi"]);
  });

  it("records outcomes with the same envelope as get_outcomes and bounds evidence", async () => {
    harness = await SessionHarness.create();
    const { session } = harness;
    const outcome = session.recordOutcome({ operationId: "op-1", capability: "git", operation: "commit", result: "ok", durationMs: 12, evidence: { sha: "abc" } });
    expect(outcome).toEqual({
      id: expect.any(String),
      parentId: expect.any(String),
      timestamp: expect.any(String),
      operationId: "op-1",
      capability: "git",
      operation: "commit",
      result: "ok",
      durationMs: 12,
      evidence: { sha: "abc" },
    });
    expect(harness.types()).toEqual(["entry_appended", "operation_outcome"]);
    expect(harness.events[1]).toEqual({ type: "operation_outcome", outcome });
    const page = session.getOutcomes(0, 100);
    expect(page).toEqual({ start: 0, total: 1, nextStart: null, outcomes: [{ index: 0, ...outcome }] });

    // 8 KiB of encoded JSON is the limit: the quotes count.
    expect(() => session.recordOutcome({ operationId: "op-2", capability: "c", operation: "o", result: "r", durationMs: 0, evidence: "x".repeat(8190) })).not.toThrow();
    expect(() => session.recordOutcome({ operationId: "op-3", capability: "c", operation: "o", result: "r", durationMs: 0, evidence: "x".repeat(8191) })).toThrow(
      expect.objectContaining({ code: "operation_failed" }),
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => session.recordOutcome({ operationId: "op-4", capability: "c", operation: "o", result: "r", durationMs: 0, evidence: cyclic })).toThrow(
      expect.objectContaining({ code: "operation_failed" }),
    );
    expect(session.getOutcomes(0, 100).total).toBe(2);
  });

  it("replaces the work plan with a new revision", async () => {
    harness = await SessionHarness.create();
    const { session } = harness;
    const first = session.replaceWorkPlan([{ id: "a", title: "Write code", status: "in_progress" }]);
    const second = session.replaceWorkPlan([
      { id: "a", title: "Write code", status: "completed" },
      { title: "Test", status: "pending" },
    ]);
    expect(first.revision).toBe(1);
    expect(second).toEqual({
      revision: 2,
      steps: [
        { id: "a", title: "Write code", status: "completed" },
        { title: "Test", status: "pending" },
      ],
    });
    expect(harness.types()).toEqual(["entry_appended", "work_plan_changed", "entry_appended", "work_plan_changed"]);
    expect(harness.events[3]).toEqual({ type: "work_plan_changed", workPlan: second });
    expect(session.getState().workPlan).toEqual(second);
    expect(() => session.replaceWorkPlan([{ title: "x", status: "done" as never }])).toThrow(expect.objectContaining({ code: "operation_failed" }));
    expect(session.getState().workPlan.revision).toBe(2);
  });

  it("registers and replaces tools", async () => {
    harness = await SessionHarness.create();
    const { session, runtime } = harness;
    const tool = (name: string) => ({
      name,
      description: name,
      parameters: { type: "object", properties: {} },
      execute: async () => ({ content: [{ type: "text" as const, text: name }] }),
    });
    session.registerTool(tool("a"));
    session.registerTool(tool("b"));
    runtime.respond(runtime.text("1"));
    await harness.ask("x");
    session.setTools([tool("c")]);
    runtime.respond(runtime.text("2"));
    await harness.ask("y");
    expect(runtime.contexts.map((context) => context.tools?.map((entry) => entry.name))).toEqual([["a", "b"], ["c"]]);
    expect(() => session.registerTool({ name: "" } as never)).toThrow(expect.objectContaining({ code: "operation_failed" }));
  });
});
