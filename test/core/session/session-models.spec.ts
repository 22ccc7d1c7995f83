import { afterEach, describe, expect, it } from "@jest/globals";
import type { SettingsWriter } from "../../../core/session/agent-session-options.js";
import { SessionHarness } from "../../support/session-harness.js";

class RecordingWriter implements SettingsWriter {
  readonly writes: [string, Record<string, unknown>][] = [];
  write(scope: "global" | "project", patch: Record<string, unknown>): void {
    this.writes.push([scope, patch]);
  }
}

describe("SessionModels and SessionThinking", () => {
  let harness: SessionHarness;
  afterEach(() => harness?.dispose());

  it("starts unselected with thinking off and no context usage", async () => {
    harness = await SessionHarness.create({ model: null, settings: { thinkingLevel: "high" } });
    const state = harness.session.getState();
    expect(state.model).toEqual({ type: "unselected" });
    expect(state.thinkingLevel).toBe("off");
    expect(state.supportedThinkingLevels).toEqual(["off"]);
    expect(state.contextUsage).toEqual({ type: "unavailable", reason: "no_model" });
    expect(harness.session.thinking.list()).toEqual({ levels: ["off"], current: "off" });
  });

  it("lists through the runtime and selects a public descriptor", async () => {
    harness = await SessionHarness.create({ model: null, settings: { thinkingLevel: "high" } });
    const { session } = harness;
    const list = await session.models.list();
    expect(list.map((model) => `${model.provider}/${model.id}:${model.configured}`)).toEqual(["faux/plain:true", "faux/thinker:true", "faux/locked:false"]);

    const selected = await session.models.select("faux", "thinker");
    expect(selected).toEqual({ provider: "faux", id: "thinker", name: "Thinker", reasoning: true, input: ["text", "image"], contextWindow: 200_000, maxTokens: 16_384 });
    const entries = [...harness.journal.entries()].map((entry) => entry.type);
    expect(entries).toEqual(["session", "model_change"]);
    expect(harness.ofType("model_changed")).toEqual([
      {
        type: "model_changed",
        model: selected,
        supportedThinkingLevels: ["off", "minimal", "low", "medium", "high"],
        contextUsage: { type: "unavailable", reason: "no_usage" },
      },
    ]);
    // The preferred level from settings now applies.
    expect(harness.ofType("thinking_level_changed")).toEqual([{ type: "thinking_level_changed", thinkingLevel: "high" }]);
    expect(session.getState().model).toEqual({ type: "selected", ...selected });
  });

  it("passes not_found and operation_failed through and changes nothing", async () => {
    harness = await SessionHarness.create({ model: null });
    await expect(harness.session.models.select("faux", "nope")).rejects.toMatchObject({ code: "not_found" });
    await expect(harness.session.models.select("other", "plain")).rejects.toMatchObject({ code: "not_found" });
    await expect(harness.session.models.select("faux", "locked")).rejects.toMatchObject({ code: "operation_failed" });
    expect(harness.session.getState().model).toEqual({ type: "unselected" });
    expect(harness.events).toEqual([]);
    // A failed selection does not block a later one.
    await expect(harness.session.models.select("faux", "plain")).resolves.toMatchObject({ id: "plain" });
  });

  it("clamps the requested level and restores the preference on a reasoning model", async () => {
    const writer = new RecordingWriter();
    harness = await SessionHarness.create({ model: "thinker", settingsWriter: writer });
    const { session } = harness;
    await expect(session.thinking.select("xhigh", "project")).resolves.toEqual({ requested: "xhigh", effective: "high", persisted: "project" });
    expect(writer.writes).toEqual([["project", { thinkingLevel: "xhigh" }]]);
    expect(session.thinking.list()).toEqual({ levels: ["off", "minimal", "low", "medium", "high"], current: "high" });

    await session.models.select("faux", "plain");
    expect(session.getState().thinkingLevel).toBe("off");
    await expect(session.thinking.select("low", undefined)).resolves.toEqual({ requested: "low", effective: "off", persisted: null });
    await session.models.select("faux", "thinker");
    expect(session.getState().thinkingLevel).toBe("low");
    const journaled = [...harness.journal.entries()].flatMap((entry) => (entry.type === "thinking_level_change" ? [entry.thinkingLevel] : []));
    expect(journaled).toEqual(["xhigh", "low"]);
  });

  it("cannot persist without a settings writer", async () => {
    harness = await SessionHarness.create();
    await expect(harness.session.thinking.select("low", "global")).rejects.toMatchObject({ code: "operation_failed" });
  });

  it("a model selected during a run applies to the next model call", async () => {
    harness = await SessionHarness.create({
      tools: [
        {
          name: "switch",
          description: "switches the model",
          parameters: { type: "object", properties: {} },
          execute: async () => {
            await harness.session.models.select("faux", "thinker");
            return { content: [{ type: "text", text: "switched" }] };
          },
        },
      ],
    });
    const { runtime } = harness;
    runtime.respond(runtime.toolCall("switch", {}), runtime.text("done"));
    await harness.ask("switch please");
    const replies = harness.messages().flatMap((message) => (message.role === "assistant" ? [message.model] : []));
    expect(replies).toEqual(["plain", "thinker"]);
  });
});
