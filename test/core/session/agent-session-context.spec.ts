import { afterEach, describe, expect, it } from "@jest/globals";
import type * as PiAi from "@mariozechner/pi-ai";
import type { AgentTool } from "../../../core/session/agent-tool.js";
import { InputQueues } from "../../../core/session/input-queues.js";
import { ChildSessionFactory } from "../../../core/session/child-session-factory.js";
import { UsageLedger } from "../../../core/session/usage-ledger.js";
import type { JournalEntry } from "../../../core/journal/journal-types.js";
import { DEFAULT_FAUX_MODELS, FauxRuntime } from "../../support/faux-runtime.js";
import { SessionHarness } from "../../support/session-harness.js";

const harnesses: SessionHarness[] = [];
afterEach(() => harnesses.splice(0).forEach((harness) => harness.dispose()));

async function harness(options: Parameters<typeof SessionHarness.create>[0] = {}): Promise<SessionHarness> {
  const created = await SessionHarness.create({ faux: { models: [...DEFAULT_FAUX_MODELS, { id: "eyes", input: ["text", "image"] }, { id: "blind", input: ["text"] }] }, ...options });
  harnesses.push(created);
  return created;
}

const PNG = { type: "image" as const, data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", mimeType: "image/png" as const };
const probe: AgentTool = { name: "probe", description: "Probe.", parameters: { type: "object" }, execute: async () => ({ content: [{ type: "text", text: "ok" }] }) };

describe("the system prompt of each run", () => {
  it("is computed once per run from the tools offered then, and sent with every model call of the run", async () => {
    const seen: string[][] = [];
    let runs = 0;
    const h = await harness({ systemPrompt: async (tools) => (seen.push(tools.map((tool) => tool.name)), `PROMPT ${++runs}`), tools: [probe] });
    h.runtime.respond(h.runtime.toolCall("probe", {}), h.runtime.text("done"));
    await h.ask("first");
    h.session.setTools([]);
    h.runtime.respond(h.runtime.text("again"));
    await h.ask("second");
    expect(seen).toEqual([["probe"], []]);
    expect(h.runtime.contexts.map((context) => context.systemPrompt)).toEqual(["PROMPT 1", "PROMPT 1", "PROMPT 2"]);
  });
});

describe("prompt images", () => {
  it("are part of the journaled user message, after its text, and reach the model", async () => {
    const h = await harness({ model: "eyes" });
    h.runtime.respond(h.runtime.text("a pixel"));
    await h.session.prompt({ delivery: "direct", text: "what is it?", images: [PNG] });
    await h.idle();
    const user = { role: "user", content: [{ type: "text", text: "what is it?" }, PNG] };
    expect(h.runtime.contexts[0]!.messages[0]).toMatchObject(user);
    expect(h.session.getMessages(0, 10).messages[0]).toMatchObject(user);
  });

  it("are refused for a model without image input, and for a continue without text; nothing is admitted", async () => {
    const h = await harness({ model: "blind" });
    expect(h.session.imageRefusal()).toBe("the selected model faux/blind does not accept images (its input is text)");
    await expect(h.session.prompt({ delivery: "direct", text: "look", images: [PNG] })).rejects.toMatchObject({ code: "operation_failed" });
    await h.session.models.select("faux", "eyes");
    expect(h.session.imageRefusal()).toBeUndefined();
    await expect(h.session.prompt({ delivery: "continue", text: "", images: [PNG] })).rejects.toThrow(/images need text/);
    expect(h.session.getState().messageCount).toBe(0);
    expect(h.types()).not.toContain("agent_start");
  });

  it("wait in the queue with their input (shown as imageCount) and count against its byte bound", async () => {
    const h = await harness({ model: "eyes" });
    await h.session.prompt({ delivery: "steer", text: "later", images: [PNG, PNG] });
    expect(h.session.getState().queuedInputs.steering).toEqual([{ text: "later", imageCount: 2 }]);
    h.runtime.respond(h.runtime.text("seen"));
    await h.session.prompt({ delivery: "continue", text: "" });
    await h.idle();
    expect(h.runtime.contexts[0]!.messages[0]).toMatchObject({ role: "user", content: [{ type: "text", text: "later" }, PNG, PNG] });
    const queues = new InputQueues("all", "all", { maxQueuedInputs: 5, maxQueuedInputBytes: 10, maxQueuedInputPreviewBytes: 4 });
    expect(queues.refusal({ text: "ab", images: [{ ...PNG, data: "AAAAAAAA" }] })).toBeUndefined();
    expect(queues.refusal({ text: "abc", images: [{ ...PNG, data: "AAAAAAAA" }] })).toBe("the input queues would exceed 10 bytes of text and images");
  });
});

describe("usage", () => {
  it("counts model calls, tool calls and tokens for the session and its current run", async () => {
    const h = await harness({ tools: [probe] });
    expect(h.session.getUsage().run).toBeNull();
    h.runtime.respond(h.runtime.toolCall("probe", {}), h.runtime.text("done"));
    await h.ask("first");
    const first = h.session.getUsage();
    expect(first.session).toMatchObject({ modelCalls: 2, toolCalls: 1 });
    expect(first.session.input).toBeGreaterThan(0);
    expect(first.run).toEqual({ ...first.session, active: false });
    h.runtime.respond(h.runtime.text("again"));
    await h.ask("second");
    const second = h.session.getUsage();
    expect(second.session).toMatchObject({ modelCalls: 3, toolCalls: 1 });
    expect(second.run).toMatchObject({ modelCalls: 1, toolCalls: 0, active: false });
    expect(second.children).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0, modelCalls: 0, toolCalls: 0, tasks: 0 });
  });

  it("a ledger starts from a resumed journal's entries and adds ended delegated tasks and compaction summaries", () => {
    const usage = (input: number, output: number, cost: number): PiAi.Usage => ({
      input,
      output,
      cacheRead: 1,
      cacheWrite: 2,
      totalTokens: input + output,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
    });
    const base = { id: "x", parentId: null, timestamp: "t" };
    const entries = [
      { ...base, type: "message", message: { role: "assistant", content: [], usage: usage(10, 5, 0.25), stopReason: "stop", timestamp: 1 } },
      { ...base, type: "message", message: { role: "toolResult", toolCallId: "t", toolName: "read", content: [], isError: false, timestamp: 1 } },
      { ...base, type: "compaction", summary: "s", firstKeptEntryId: "x", tokensBefore: 9, usage: usage(100, 20, 0.5) },
      { ...base, type: "subagent", data: { phase: "start" } },
      { ...base, type: "subagent", data: { phase: "end", turns: 3, toolCalls: 4, usage: { input: 7, output: 8, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: 1 } } },
    ] as unknown as JournalEntry[];
    const ledger = new UsageLedger(entries);
    expect(ledger.snapshot()).toEqual({
      session: { input: 110, output: 25, cacheRead: 2, cacheWrite: 4, totalTokens: 135, cost: 0.75, modelCalls: 2, toolCalls: 1 },
      run: null,
      children: { input: 7, output: 8, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: 1, modelCalls: 3, toolCalls: 4, tasks: 1 },
    });
    ledger.startRun();
    ledger.observe(entries[0]!);
    ledger.endRun();
    ledger.observe(entries[0]!);
    expect(ledger.snapshot().run).toMatchObject({ modelCalls: 1, input: 10, active: false });
    expect(ledger.snapshot().session.modelCalls).toBe(4);
  });
});

describe("delegated children", () => {
  it("get the parent's environment and project context after their profile's prompt", async () => {
    const runtime = await FauxRuntime.create();
    try {
      const factory = new ChildSessionFactory({ runtime, cwd: "/p", journalDir: null, contextSections: () => "# Environment\n\n- Working directory: /p" });
      runtime.respond(runtime.text("ok"));
      const child = await factory.create({ agent: "explore", systemPrompt: "You explore.", model: { provider: "faux", id: "plain" }, thinkingLevel: "off", tools: () => [] });
      await child.session.prompt({ delivery: "direct", text: "go", completionId: "c" });
      await child.session.awaitIdle("c", new AbortController().signal);
      expect(runtime.contexts[0]!.systemPrompt).toBe("You explore.\n\n# Environment\n\n- Working directory: /p");
      await child.close();
    } finally {
      runtime.dispose();
    }
  });
});
