import { afterEach, describe, expect, it } from "@jest/globals";
import type { AgentTool } from "../../../core/session/agent-tool.js";
import type { AgentSessionEvent } from "../../../core/wire/session-types.js";
import { SessionHarness, textOf } from "../../support/session-harness.js";

const echoTool: AgentTool = {
  name: "echo",
  description: "Echoes its text",
  parameters: { type: "object", properties: { text: { type: "string" }, times: { type: "integer" } }, required: ["text"] },
  async execute(args, context) {
    context.onUpdate({ content: [{ type: "text", text: "working" }] });
    return { content: [{ type: "text", text: `echo:${String(args.text)}:${String(args.times ?? 1)}` }], details: { ok: true } };
  },
};

const throwingTool: AgentTool = {
  name: "boom",
  description: "Always throws",
  parameters: { type: "object", properties: {} },
  async execute() {
    throw new Error("kaboom");
  },
};

describe("AgentSession run loop", () => {
  let harness: SessionHarness;
  afterEach(() => harness?.dispose());

  it("streams a reply with whole-message start/end and delta-only updates", async () => {
    harness = await SessionHarness.create();
    const reply = "The quick brown fox jumps over the lazy dog.";
    harness.runtime.respond(harness.runtime.text(reply));
    const result = await harness.session.prompt({ delivery: "direct", text: "hi" });
    expect(result).toEqual({ delivery: "direct", admission: "started" });
    await harness.idle();

    const loopTypes = harness.types().filter((type) => !["entry_appended", "activity_changed", "queue_update"].includes(type));
    expect(loopTypes[0]).toBe("agent_start");
    expect(loopTypes[1]).toBe("turn_start");
    expect(loopTypes.slice(2, 4)).toEqual(["message_start", "message_end"]); // the user message
    expect(loopTypes.at(-1)).toBe("agent_end");
    expect(loopTypes.at(-2)).toBe("turn_end");

    const updates = harness.ofType("message_update");
    expect(updates.length).toBeGreaterThan(3);
    for (const update of updates) {
      expect(Object.keys(update).sort()).toEqual(["assistantMessageEvent", "type"]);
      expect(Object.keys(update.assistantMessageEvent as object).sort()).toEqual(["contentIndex", "delta", "type"]);
    }
    const streamed = updates.map((update) => (update.assistantMessageEvent as { delta: string }).delta).join("");
    expect(streamed).toBe(reply);

    const ends = harness.ofType("message_end").map((event) => event.message as { role: string });
    expect(ends.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(textOf(ends[1] as never)).toBe(reply);
    expect(harness.ofType("agent_end")[0]).toEqual({ type: "agent_end", reason: "completed" });
    expect(harness.session.getState().activity).toEqual({ type: "idle" });
    expect(harness.session.getState().messageCount).toBe(2);
  });

  it("journals every message before its message_end and announces each append right after it", async () => {
    harness = await SessionHarness.create();
    harness.runtime.respond(harness.runtime.text("ok"));
    const order: string[] = [];
    harness.session.subscribe((event) => {
      if (event.type === "entry_appended") order.push(`appended:${(event.entry as { type: string }).type}`);
      if (event.type === "message_end") {
        const role = (event.message as { role: string }).role;
        const journaled = harness.messages().some((message) => message === event.message || JSON.stringify(message) === JSON.stringify(event.message));
        order.push(`end:${role}:${journaled}`);
      }
    });
    await harness.ask("hello");
    expect(order).toEqual(["appended:message", "end:user:true", "appended:message", "end:assistant:true"]);
    expect(harness.ofType("entry_appended")).toHaveLength(harness.messages().length);
  });

  it("runs tool calls, validates arguments, and feeds results to the next turn", async () => {
    harness = await SessionHarness.create({ tools: [echoTool] });
    const { runtime } = harness;
    // "3" is coerced to the integer the schema asks for.
    runtime.respond(runtime.toolCall("echo", { text: "x", times: "3" }, "call-1"), runtime.text("done"));
    await harness.ask("use the tool");

    const types = harness.types().filter((type) => type.startsWith("tool_execution"));
    expect(types).toEqual(["tool_execution_start", "tool_execution_update", "tool_execution_end"]);
    const end = harness.ofType("tool_execution_end")[0] as AgentSessionEvent & { result: { content: { text: string }[] }; isError: boolean };
    expect(end.isError).toBe(false);
    expect(end.result.content[0].text).toBe("echo:x:3");

    const roles = harness.messages().map((message) => message.role);
    expect(roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
    const toolResult = harness.messages()[2] as { toolCallId: string; details: unknown };
    expect(toolResult.toolCallId).toBe("call-1");
    expect(toolResult.details).toEqual({ ok: true });
    // The second model call saw the tool result and the tool definition.
    const second = runtime.contexts[1];
    expect(second.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(second.tools?.map((tool) => tool.name)).toEqual(["echo"]);
    expect(harness.ofType("turn_start")).toHaveLength(2);
    expect(harness.ofType("turn_end")).toHaveLength(2);
  });

  it("turns unknown tools, invalid arguments and throwing tools into error results", async () => {
    harness = await SessionHarness.create({ tools: [echoTool, throwingTool] });
    const { runtime, piAi } = { runtime: harness.runtime, piAi: harness.runtime.piAi };
    runtime.respond(
      piAi.fauxAssistantMessage(
        [
          piAi.fauxToolCall("missing", {}, { id: "a" }),
          piAi.fauxToolCall("echo", { times: 2 }, { id: "b" }),
          piAi.fauxToolCall("boom", {}, { id: "c" }),
        ],
        { stopReason: "toolUse" },
      ),
      runtime.text("recovered"),
    );
    await harness.ask("go");

    const results = harness.messages().filter((message) => message.role === "toolResult") as { toolCallId: string; isError: boolean; content: { text: string }[] }[];
    expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
      ["a", true],
      ["b", true],
      ["c", true],
    ]);
    expect(results[0].content[0].text).toContain("not found");
    expect(results[1].content[0].text).toContain("Validation failed");
    expect(results[2].content[0].text).toBe("kaboom");
    expect(harness.session.getState().activity).toEqual({ type: "idle" });
    expect(textOf(harness.messages().at(-1)!)).toBe("recovered");
  });

  it("lets a tool repair its arguments before validation, and tells it the run's model", async () => {
    const seen: unknown[] = [];
    const strict: AgentTool = {
      name: "strict",
      description: "Takes a list",
      parameters: { type: "object", properties: { items: { type: "array", items: { type: "string" } } }, required: ["items"], additionalProperties: false },
      prepareArguments: (args) => {
        const raw = args as { items?: unknown };
        return typeof raw.items === "string" ? { items: JSON.parse(raw.items) as unknown } : args;
      },
      async execute(args, context) {
        seen.push(args.items, context.model);
        return { content: [{ type: "text", text: "ok" }] };
      },
    };
    harness = await SessionHarness.create({ tools: [strict] });
    const { runtime, piAi } = { runtime: harness.runtime, piAi: harness.runtime.piAi };
    runtime.respond(piAi.fauxAssistantMessage([piAi.fauxToolCall("strict", { items: '["a","b"]' }, { id: "s" })], { stopReason: "toolUse" }), runtime.text("done"));
    await harness.ask("go");
    const result = harness.messages().find((message) => message.role === "toolResult") as { isError: boolean };
    expect(result.isError).toBe(false);
    expect(seen[0]).toEqual(["a", "b"]);
    expect(seen[1]).toEqual({ provider: expect.any(String), id: expect.any(String), input: expect.arrayContaining(["text"]) });
  });

  it("ends in failed on a fatal provider error, and interrupt acknowledges it", async () => {
    harness = await SessionHarness.create();
    harness.runtime.respond(harness.runtime.error("invalid api key"));
    await harness.ask("hi");
    expect(harness.session.getState().activity).toEqual({ type: "failed", errorMessage: "invalid api key" });
    expect(harness.ofType("agent_end")[0]).toEqual({ type: "agent_end", reason: "failed", errorMessage: "invalid api key" });
    await expect(harness.session.prompt({ delivery: "continue", text: "" })).rejects.toMatchObject({ code: "operation_failed" });
    await harness.session.interrupt();
    expect(harness.session.getState().activity).toEqual({ type: "idle" });
  });

  it("a direct prompt from failed starts a new run", async () => {
    harness = await SessionHarness.create();
    harness.runtime.respond(harness.runtime.error("bad request"), harness.runtime.text("fine now"));
    await harness.ask("one");
    expect(harness.session.getState().activity.type).toBe("failed");
    await harness.ask("two");
    expect(harness.session.getState().activity).toEqual({ type: "idle" });
    // The failed reply is in the transcript but not replayed to the model.
    expect(harness.messages().map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(harness.runtime.contexts[1].messages.map((message) => message.role)).toEqual(["user", "user"]);
  });

  it("uses the system prompt and the effective thinking level", async () => {
    harness = await SessionHarness.create({ systemPrompt: "be brief", settings: { thinkingLevel: "high" }, model: "thinker" });
    harness.runtime.respond(harness.runtime.text("ok"));
    await harness.ask("hi");
    expect(harness.runtime.contexts[0].systemPrompt).toBe("be brief");
    expect(harness.runtime.options[0].thinkingLevel).toBe("high");
    expect(harness.runtime.options[0].sessionId).toBe("session-test");
  });
});

describe("AgentSession run-time tools", () => {
  let harness: SessionHarness;
  afterEach(() => harness?.dispose());

  it("runs before-model-call hooks before every model call; a tool added or removed there is offered from that call", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    let calls = 0;
    const remove = session.onBeforeModelCall(async () => {
      calls++;
      // The second model call (after the tool result) is the first to see the late tool, and the echo tool is gone.
      if (calls === 2) {
        session.removeTool("echo");
        session.registerTool({ ...echoTool, name: "late" });
      }
    });
    session.onBeforeModelCall(async () => {
      throw new Error("a broken hook is logged, never fails the run");
    });
    session.registerTool(echoTool);
    runtime.respond(runtime.toolCall("echo", { text: "x" }, "call-1"), runtime.text("done"));
    await session.prompt({ delivery: "direct", text: "go" });
    await harness.idle();
    expect(calls).toBe(2);
    expect(runtime.contexts.map((context) => (context.tools ?? []).map((tool) => tool.name))).toEqual([["echo"], ["late"]]);
    remove();
    runtime.respond(runtime.text("again"));
    await session.prompt({ delivery: "direct", text: "again" });
    await harness.idle();
    expect(calls).toBe(2);
  });
});
