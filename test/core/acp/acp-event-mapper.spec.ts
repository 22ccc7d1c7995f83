import { describe, expect, it } from "@jest/globals";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { AcpEventMapper, planUpdate, usageUpdate } from "../../../core/acp/acp-event-mapper.js";
import { MAX_TOOL_TEXT_CHARS, argumentDiff, clipToolText, toolCallFields } from "../../../core/acp/acp-tool-calls.js";
import type { ContextUsage } from "../../../core/wire/session-types.js";
import type { AgentTool } from "../../../core/session/agent-tool.js";
import { describedToolCall } from "../../../core/session/tool-declaration.js";
import { createCodingTools } from "../../../plugins/coding-tools/coding-tools.factory.js";
import { looseEvent } from "../../support/loose-event.js";
import { UpdatePlanTool } from "../../../plugins/work-plan/update-plan.tool.js";

/** The built-in tools' declarations (delegate's stands in as a declared `think` tool), as a session describes its calls. */
function describer(cwd: string) {
  const tools = new Map<string, Pick<AgentTool, "declaration">>(
    [...createCodingTools({ cwd, logDir: join(cwd, ".logs") }), new UpdatePlanTool(async () => ({}))].map((tool) => [tool.name, tool]),
  );
  tools.set("delegate", { declaration: { effect: "other", display: "think", describe: () => ({ title: "Delegate to subagents", paths: [] }) } });
  return (name: string, args: Record<string, unknown>) => describedToolCall(tools.get(name), name, args, cwd);
}

function mapper(usage: ContextUsage = { type: "unavailable", reason: "no_usage" }, notices = false) {
  const cwd = mkdtempSync(join(tmpdir(), "zi-acp-map-"));
  const sent: acp.SessionUpdate[] = [];
  const map = new AcpEventMapper(cwd, async (update) => void sent.push(update), () => usage, notices, describer(cwd));
  return { cwd, sent, map };
}

describe("AcpEventMapper", () => {
  it("text and thinking deltas become message and thought chunks; tool-call deltas and empty deltas send nothing", async () => {
    const { sent, map } = mapper();
    await map.handle({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "Hi" } });
    await map.handle({ type: "message_update", assistantMessageEvent: { type: "thinking_delta", contentIndex: 1, delta: "hmm" } });
    await map.handle({ type: "message_update", assistantMessageEvent: { type: "toolcall_delta", contentIndex: 2, delta: "{" } });
    await map.handle({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "" } });
    expect(sent).toEqual([
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hi" } },
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } },
    ]);
  });

  it("a tool's partial results (bash output, delegation progress) update the call's content and raw output", async () => {
    const { sent, map } = mapper();
    const details = { delegationId: "d1", tasks: [{ index: 0, profile: "scout", status: "running", turns: 1, lastTool: "read" }] };
    await map.handle(looseEvent({ type: "tool_execution_start", toolCallId: "t1", toolName: "delegate", args: { tasks: [] } }));
    await map.handle({ type: "tool_execution_update", toolCallId: "t1", toolName: "delegate", partialResult: { content: [{ type: "text", text: "1. scout: running" }], details } });
    expect(sent[0]).toMatchObject({ sessionUpdate: "tool_call", toolCallId: "t1", kind: "think", status: "pending" });
    expect(sent[1]).toEqual({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "in_progress" });
    expect(sent[2]).toEqual({ sessionUpdate: "tool_call_update", toolCallId: "t1", content: [{ type: "content", content: { type: "text", text: "1. scout: running" } }], rawOutput: details });
  });

  it("a tool call announced in the reply is not announced again when it starts", async () => {
    const { sent, map } = mapper();
    await map.handle(looseEvent({ type: "message_end", message: { role: "assistant", content: [{ type: "toolCall", id: "t1", name: "bash", arguments: { command: "ls -la" } }], stopReason: "toolUse" } }));
    await map.handle(looseEvent({ type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: { command: "ls -la" } }));
    expect(sent.filter((update) => update.sessionUpdate === "tool_call")).toHaveLength(1);
    expect(sent[0]).toMatchObject({ title: "ls -la", kind: "execute", locations: [] });
    expect(map.lastStopReason).toBe("toolUse");
  });

  it("a failed edit carries no diff; a file too large to snapshot falls back to the call's arguments", async () => {
    const { cwd, sent, map } = mapper();
    writeFileSync(join(cwd, "big.txt"), "x".repeat(1024 * 1024 + 1));
    await map.handle(looseEvent({ type: "tool_execution_start", toolCallId: "f", toolName: "edit", args: { path: "big.txt", oldText: "a", newText: "b" } }));
    await map.handle({ type: "tool_execution_end", toolCallId: "f", toolName: "edit", result: { content: [{ type: "text", text: "not found" }] }, isError: true });
    expect((sent.at(-1) as acp.ToolCallUpdate).content).toEqual([{ type: "content", content: { type: "text", text: "not found" } }]);
    await map.handle(looseEvent({ type: "tool_execution_start", toolCallId: "g", toolName: "edit", args: { path: "big.txt", oldText: "x", newText: "y" } }));
    await map.handle({ type: "tool_execution_end", toolCallId: "g", toolName: "edit", result: { content: [] }, isError: false });
    expect((sent.at(-1) as acp.ToolCallUpdate).content).toEqual([{ type: "diff", path: join(cwd, "big.txt"), oldText: "x", newText: "y" }]);
  });

  it("usage is sent after each reply, with the cumulative cost when the provider reports one", async () => {
    const { sent, map } = mapper({ type: "available", tokens: 1200, contextWindow: 200_000, percent: 0.6 });
    // A loaded session's replayed reply counts its cost, without a usage update of its own.
    await map.replay({ role: "assistant", content: [], usage: { cost: { total: 0.5 } }, stopReason: "stop" });
    expect(sent).toEqual([]);
    await map.handle(looseEvent({ type: "message_end", message: { role: "assistant", content: [], usage: { cost: { total: 0.25 } }, stopReason: "stop" } }));
    expect(sent).toEqual([{ sessionUpdate: "usage_update", used: 1200, size: 200_000, cost: { amount: 0.75, currency: "USD" } }]);
    expect(usageUpdate({ type: "unavailable", reason: "no_model" }, 1)).toBeUndefined();
  });
});

describe("AcpEventMapper replay: the live projection, for session/load", () => {
  it("gives a journaled turn the updates the live events gave it: chunks, the call's card, its end with the diff from its arguments", async () => {
    const live = mapper();
    await live.map.handle({ type: "message_update", assistantMessageEvent: { type: "thinking_delta", contentIndex: 0, delta: "hmm" } });
    await live.map.handle({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 1, delta: "Writing." } });
    const call = { type: "toolCall", id: "w1", name: "write", arguments: { path: "a.txt", content: "A" } };
    await live.map.handle(looseEvent({ type: "message_end", message: { role: "assistant", content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "Writing." }, call], stopReason: "toolUse" } }));
    await live.map.handle({ type: "tool_execution_end", toolCallId: "w1", toolName: "write", result: { content: [{ type: "text", text: "wrote" }] }, isError: false });
    const replayed = mapper();
    await replayed.map.replay({ role: "user", content: [{ type: "text", text: "write a" }] });
    await replayed.map.replay({ role: "assistant", content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "Writing." }, call], stopReason: "toolUse" });
    await replayed.map.replay({ role: "toolResult", toolCallId: "w1", content: [{ type: "text", text: "wrote" }], isError: false });
    expect(replayed.sent[0]).toEqual({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "write a" } });
    // Live, the end of a tool without a start (no snapshot) falls back to the arguments, as the replay does.
    const seen = (updates: acp.SessionUpdate[], cwd: string) => JSON.parse(JSON.stringify(updates).split(cwd).join("<cwd>")) as unknown;
    expect(seen(replayed.sent.slice(1), replayed.cwd)).toEqual(seen(live.sent.filter((update) => update.sessionUpdate !== "usage_update"), live.cwd));
    expect(replayed.sent.map((update) => update.sessionUpdate)).toEqual(["user_message_chunk", "agent_thought_chunk", "agent_message_chunk", "tool_call", "tool_call_update"]);
  });
});

describe("AcpEventMapper notices", () => {
  it("retries and broken extensions become notices only for a client that presents them", async () => {
    const retry = { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "overloaded" } as const;
    const broken = { type: "extension_error", extension: "/x/bad.ts", error: "SyntaxError" } as const;
    const silent = mapper();
    await silent.map.handle(retry);
    await silent.map.handle(broken);
    expect(silent.sent).toEqual([]);
    const shown = mapper(undefined, true);
    await shown.map.handle(retry);
    await shown.map.handle(broken);
    expect(shown.sent).toEqual([
      { sessionUpdate: "notice", severity: "warning", title: "Retrying the model call (attempt 1 of 3)", description: "overloaded" },
      { sessionUpdate: "notice", severity: "error", title: "Extension /x/bad.ts failed", description: "SyntaxError" },
    ]);
  });
});

describe("ACP tool-call helpers", () => {
  it("kinds, titles and plan statuses", () => {
    const describe = describer("/p");
    const kinds = ["read", "ls", "write", "edit", "bash", "grep", "find", "update_plan", "delegate", "mcp__x__y"].map((name) => toolCallFields(describe(name, { path: "a" }).info).kind);
    expect(kinds).toEqual(["read", "read", "edit", "edit", "execute", "search", "search", "think", "think", "other"]);
    expect(toolCallFields(describe("grep", { pattern: "TODO", path: "src" }).info).title).toBe('Search "TODO" in src');
    expect(toolCallFields(describe("bash", { command: "a\n".repeat(200) }).info).title.length).toBe(120);
    expect(planUpdate({ revision: 1, steps: [{ title: "x", status: "cancelled" }] })).toEqual({
      sessionUpdate: "plan",
      entries: [{ content: "x (cancelled)", priority: "medium", status: "completed" }],
    });
  });

  it("clips long outputs without splitting a surrogate pair, and diffs several edits from arguments", () => {
    const text = `${"a".repeat(MAX_TOOL_TEXT_CHARS - 1)}😀tail`;
    const clipped = clipToolText(text);
    expect(clipped.startsWith("a".repeat(MAX_TOOL_TEXT_CHARS - 1) + "\n…")).toBe(true);
    expect(argumentDiff(describer("/p")("edit", { path: "f.ts", edits: [{ oldText: "a", newText: "b" }, { oldText: "c", newText: "d" }] }))).toEqual([
      { type: "diff", path: "/p/f.ts", oldText: "a", newText: "b" },
      { type: "diff", path: "/p/f.ts", oldText: "c", newText: "d" },
    ]);
  });
});
