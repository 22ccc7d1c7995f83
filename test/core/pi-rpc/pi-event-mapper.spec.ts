import { describe, expect, it } from "@jest/globals";
import { EncodedEvent, PiEventMapper } from "../../../core/pi-rpc/pi-event-mapper.js";
import { looseEvent } from "../../support/loose-event.js";

const decode = (events: unknown[]) => events.map((event) => (event instanceof EncodedEvent ? JSON.parse(event.json) : event));
const assistant = (content: unknown[]) => ({ role: "assistant" as const, content, provider: "faux", model: "echo", stopReason: "stop", timestamp: 0 });

describe("PiEventMapper: Zi's session events as pi's", () => {
  it("brackets each block's deltas with *_start / *_end and sends the growing message as message and partial", () => {
    const mapper = new PiEventMapper();
    const out = decode([
      ...mapper.map({ type: "agent_start" }),
      ...mapper.map({ type: "message_start", message: assistant([]) }),
      ...mapper.map({ type: "message_update", assistantMessageEvent: { type: "thinking_delta", contentIndex: 0, delta: "hm" } }),
      ...mapper.map({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 1, delta: "He" } }),
      ...mapper.map({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 1, delta: "llo" } }),
      ...mapper.map({ type: "message_update", assistantMessageEvent: { type: "toolcall_delta", contentIndex: 2, delta: '{"a":1}' } }),
      ...mapper.map({ type: "message_end", message: assistant([{ type: "thinking", thinking: "hm" }, { type: "text", text: "Hello" }, { type: "toolCall", id: "c1", name: "ls", arguments: { a: 1 } }]) }),
      ...mapper.map({ type: "agent_end", reason: "completed" }),
    ]);
    const updates = out.filter((event) => event.type === "message_update");
    expect(updates.map((event) => event.assistantMessageEvent.type)).toEqual([
      "thinking_start",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_delta",
      "text_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_end",
    ]);
    for (const update of updates) expect(update.assistantMessageEvent.partial).toEqual(update.message);
    expect(updates[5].message.content[1]).toEqual({ type: "text", text: "Hello" });
    expect(updates[6].assistantMessageEvent).toMatchObject({ type: "text_end", contentIndex: 1, content: "Hello" });
    expect(updates[9].assistantMessageEvent).toMatchObject({ type: "toolcall_end", toolCall: { type: "toolCall", id: "c1", name: "ls", arguments: { a: 1 } } });
    expect(out.at(-1)).toEqual({ type: "agent_end", messages: [assistant([{ type: "thinking", thinking: "hm" }, { type: "text", text: "Hello" }, { type: "toolCall", id: "c1", name: "ls", arguments: { a: 1 } }])] });
  });

  it("keeps pi's fields: queue texts, tool args on updates, compaction results, extension errors; drops Zi-only events", () => {
    const mapper = new PiEventMapper();
    expect(mapper.map({ type: "queue_update", steering: [{ text: "a", completionId: "x" }], followUp: [{ text: "b", imageCount: 1 }] })).toEqual([{ type: "queue_update", steering: ["a"], followUp: ["b"] }]);
    expect(mapper.map(looseEvent({ type: "tool_execution_start", toolCallId: "t", toolName: "bash", args: { command: "ls" }, call: { kind: "execute", title: "ls", locations: [] }, delegation: { index: 0 } }))).toEqual([
      { type: "tool_execution_start", toolCallId: "t", toolName: "bash", args: { command: "ls" } },
    ]);
    expect(mapper.map({ type: "tool_execution_update", toolCallId: "t", toolName: "bash", partialResult: { content: [] } })).toEqual([
      { type: "tool_execution_update", toolCallId: "t", toolName: "bash", args: { command: "ls" }, partialResult: { content: [] } },
    ]);
    expect(mapper.map({ type: "compaction_end", reason: "threshold", summary: "s" })).toEqual([{ type: "compaction_end", reason: "threshold", result: { summary: "s" }, aborted: false, willRetry: false }]);
    expect(mapper.map({ type: "compaction_end", reason: "manual", aborted: true })).toEqual([{ type: "compaction_end", reason: "manual", result: null, aborted: true, willRetry: false }]);
    expect(mapper.map({ type: "extension_error", extension: "/x.mjs", error: "boom" })).toEqual([{ type: "extension_error", extensionPath: "/x.mjs", error: "boom" }]);
    for (const type of ["activity_changed", "model_changed", "thinking_level_changed", "entry_appended", "operation_outcome", "work_plan_changed", "permission_requested", "permission_resolved", "mcp_server_changed", "session_switched", "a_future_zi_event"]) {
      expect(mapper.map(looseEvent({ type }))).toEqual([]);
    }
  });
});
