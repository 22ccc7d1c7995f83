import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { join } from "node:path";
import type { ThinkingLevel } from "../../../core/wire/session-types.js";
import { ModelRegistry } from "../../../core/models/model-registry.js";
import { drain, TempZiHome, textOf, userContext } from "../../support/temp-zi-home.js";

describe("faux models", () => {
  let home: TempZiHome;
  beforeEach(() => {
    home = new TempZiHome();
  });
  afterEach(() => home.cleanup());

  const registry = (script?: unknown) => {
    const fauxScriptFile = script === undefined ? undefined : home.write(join(home.root, "script.json"), script);
    return home.registry({ fauxScriptFile });
  };
  const options = (overrides: { signal?: AbortSignal; thinkingLevel?: ThinkingLevel } = {}) => ({
    signal: overrides.signal ?? new AbortController().signal,
    thinkingLevel: overrides.thinkingLevel ?? ("off" as ThinkingLevel),
    sessionId: "session-1",
  });

  describe("faux/echo", () => {
    it("is always listed and configured, without keys or a script", async () => {
      const models = await registry().list();
      expect(models.filter((model) => model.provider === "faux")).toEqual([
        { provider: "faux", id: "echo", name: "Faux Echo", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 16384, configured: true },
      ]);
    });

    it("streams the last user text back in several deltas", async () => {
      const runtime = registry();
      const echo = await runtime.resolve("faux", "echo");
      expect(echo.supportedThinkingLevels).toEqual(["off"]);
      const context = userContext("first");
      context.messages.push({ role: "user", content: [{ type: "text", text: "hello" }, { type: "text", text: "world" }], timestamp: 1 });
      const { events, message } = await drain(await runtime.stream(echo, context, options()));

      const deltas = events.flatMap((event) => (event.type === "text_delta" ? [event.delta] : []));
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join("")).toBe("Echo: hello\nworld");
      expect(events[0].type).toBe("start");
      expect(events.at(-1)?.type).toBe("done");
      expect(message.stopReason).toBe("stop");
      expect(textOf(message)).toBe("Echo: hello\nworld");
      expect(message.provider).toBe("faux");
      expect(message.model).toBe("echo");
    });

    it("answers an empty user text and a missing one", async () => {
      const runtime = registry();
      const echo = await runtime.resolve("faux", "echo");
      const empty = await drain(await runtime.stream(echo, userContext(""), options()));
      expect(textOf(empty.message)).toBe("Echo: ");
      expect(empty.events.filter((event) => event.type === "text_delta").length).toBeGreaterThan(1);
      const none = await drain(await runtime.stream(echo, { messages: [] }, options()));
      expect(textOf(none.message)).toBe("Echo: ");
    });

    it("echoes a large text whole, in a bounded number of deltas", async () => {
      const runtime = registry();
      const echo = await runtime.resolve("faux", "echo");
      const big = "0123456789abcdef".repeat(128 * 1024);
      const { events, message } = await drain(await runtime.stream(echo, userContext(big), options()));
      const deltas = events.filter((event) => event.type === "text_delta");
      expect(textOf(message)).toBe(`Echo: ${big}`);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.length).toBeLessThanOrEqual(40);
    });

    it("ends aborted when the signal is already aborted", async () => {
      const runtime = registry();
      const echo = await runtime.resolve("faux", "echo");
      const controller = new AbortController();
      controller.abort();
      const { message } = await drain(await runtime.stream(echo, userContext("x"), options({ signal: controller.signal })));
      expect(message.stopReason).toBe("aborted");
    });
  });

  describe("faux/scripted", () => {
    it("is absent without a script", async () => {
      const runtime = registry();
      expect((await runtime.list()).some((model) => model.id === "scripted")).toBe(false);
      await expect(runtime.resolve("faux", "scripted")).rejects.toMatchObject({ code: "not_found" });
    });

    it("is a reasoning model with off..high but not xhigh", async () => {
      const runtime = registry({ responses: [] });
      expect((await runtime.list()).find((model) => model.id === "scripted")).toMatchObject({ reasoning: true, configured: true });
      const scripted = await runtime.resolve("faux", "scripted");
      expect(scripted.supportedThinkingLevels).toEqual(["off", "minimal", "low", "medium", "high"]);
      expect(runtime.clampThinking(scripted, "xhigh")).toBe("high");
      expect(runtime.clampThinking(scripted, "minimal")).toBe("minimal");
    });

    it("hands a step naming a profile only to that delegated child, and the parent only steps without one", async () => {
      const runtime = registry({
        responses: [
          { profile: "explore", text: "explore 1" },
          { text: "parent 1" },
          { profile: "worker", text: "worker 1" },
          { profile: "explore", text: "explore 2" },
        ],
      });
      const scripted = await runtime.resolve("faux", "scripted");
      const call = async (agent: string | undefined, text: string) =>
        textOf((await drain(await runtime.stream(scripted, userContext(text), { ...options(), agent }))).message);
      expect(await call("worker", "w")).toBe("worker 1");
      expect(await call(undefined, "p")).toBe("parent 1");
      expect(await call("explore", "e")).toBe("explore 1");
      expect(await call(undefined, "p2")).toBe("Echo: p2"); // the parent's steps are used up
      expect(await call("worker", "w2")).toBe("Echo: w2");
      expect(await call("reviewer", "r")).toBe("Echo: r");
      expect(await call("explore", "e2")).toBe("explore 2");
    });

    it("plays one step per call, then falls back to echo", async () => {
      const runtime = registry({
        responses: [
          { text: "first answer" },
          { thinking: "let me think", text: "second answer" },
          { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }, { name: "ls", id: "call-2" }] },
        ],
      });
      const scripted = await runtime.resolve("faux", "scripted");

      const first = await drain(await runtime.stream(scripted, userContext("q1"), options()));
      expect(textOf(first.message)).toBe("first answer");
      expect(first.message.stopReason).toBe("stop");

      const second = await drain(await runtime.stream(scripted, userContext("q2"), options({ thinkingLevel: "high" })));
      expect(second.message.content.map((block) => block.type)).toEqual(["thinking", "text"]);
      expect(second.events.filter((event) => event.type === "thinking_delta").map((event) => (event as { delta: string }).delta).join("")).toBe("let me think");
      expect(textOf(second.message)).toBe("second answer");

      const third = await drain(await runtime.stream(scripted, userContext("q3"), options()));
      expect(third.message.stopReason).toBe("toolUse");
      const calls = third.message.content.filter((block) => block.type === "toolCall");
      expect(calls.map((call) => [call.name, call.arguments])).toEqual([["read", { path: "a.txt" }], ["ls", {}]]);
      expect(calls[1].id).toBe("call-2");
      expect(third.events.some((event) => event.type === "toolcall_end")).toBe(true);

      const fourth = await drain(await runtime.stream(scripted, userContext("after the script"), options()));
      expect(textOf(fourth.message)).toBe("Echo: after the script");
    });

    it("streams error steps with their message and retryability", async () => {
      const runtime = registry({
        responses: [
          { error: { message: "upstream overloaded", retryable: true } },
          { text: "partial", error: { message: "rate limit exceeded" } },
          { error: { message: "prompt is too long: 300000 tokens > 200000 maximum" } },
        ],
      });
      const scripted = await runtime.resolve("faux", "scripted");

      const retryable = await drain(await runtime.stream(scripted, userContext("a"), options()));
      expect(retryable.message).toMatchObject({ stopReason: "error", errorMessage: "upstream overloaded" });
      expect(retryable.events.at(-1)?.type).toBe("error");
      expect(runtime.classifyError(retryable.message, scripted)).toBe("retryable");
      // The verdict survives serialisation (journal, RPC) because it is data, not object identity.
      expect(runtime.classifyError(JSON.parse(JSON.stringify(retryable.message)), scripted)).toBe("retryable");

      const fatal = await drain(await runtime.stream(scripted, userContext("b"), options()));
      expect(fatal.message).toMatchObject({ stopReason: "error", errorMessage: "rate limit exceeded" });
      expect(textOf(fatal.message)).toBe("partial");
      // Not retryable unless the script says so, whatever the text suggests.
      expect(runtime.classifyError(fatal.message, scripted)).toBe("fatal");

      const overflow = await drain(await runtime.stream(scripted, userContext("c"), options()));
      expect(runtime.classifyError(overflow.message, scripted)).toBe("context_overflow");
    });

    it("waits delayMs before the first token, and an abort ends the wait as aborted", async () => {
      const runtime = registry({ responses: [{ text: "too late", delayMs: 60_000 }, { text: "next" }] });
      const scripted = await runtime.resolve("faux", "scripted");
      const controller = new AbortController();
      const stream = await runtime.stream(scripted, userContext("x"), options({ signal: controller.signal }));
      const seen: string[] = [];
      const consumed = (async () => {
        for await (const event of stream) seen.push(event.type);
      })();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual([]);
      controller.abort();
      await consumed;
      const message = await stream.result();
      expect(message.stopReason).toBe("aborted");
      expect(textOf(message)).toBe("");
      expect(seen).toEqual(["error"]);

      // The delayed step was consumed; the next call plays the next one.
      const next = await drain(await runtime.stream(scripted, userContext("y"), options()));
      expect(textOf(next.message)).toBe("next");
    });

    it("paces a step with tokensPerSecond in one-token deltas", async () => {
      const runtime = registry({ responses: [{ text: "abcdefghijklmnop", tokensPerSecond: 1000 }] });
      const scripted = await runtime.resolve("faux", "scripted");
      const { events, message } = await drain(await runtime.stream(scripted, userContext("x"), options()));
      const deltas = events.flatMap((event) => (event.type === "text_delta" ? [event.delta] : []));
      expect(deltas).toEqual(["abcd", "efgh", "ijkl", "mnop"]);
      expect(textOf(message)).toBe("abcdefghijklmnop");
    });

    it("answers a pacing-only step with the echo text", async () => {
      const runtime = registry({ responses: [{ delayMs: 1 }] });
      const scripted = await runtime.resolve("faux", "scripted");
      const { message } = await drain(await runtime.stream(scripted, userContext("ping"), options()));
      expect(textOf(message)).toBe("Echo: ping");
    });
  });

  describe("script validation", () => {
    const invalid: [string, unknown, RegExp][] = [
      ["not JSON", "{ responses: [", /not valid JSON/],
      ["no responses array", { steps: [] }, /steps is not a known field/],
      ["responses not an array", { responses: {} }, /responses must be an array/],
      ["unknown step field", { responses: [{ txt: "x" }] }, /responses\[0\]\.txt is not a known field/],
      ["text not a string", { responses: [{ text: 1 }] }, /responses\[0\]\.text must be a string/],
      ["negative delay", { responses: [{}, { delayMs: -1 }] }, /responses\[1\]\.delayMs must be a number >= 0/],
      ["zero speed", { responses: [{ tokensPerSecond: 0 }] }, /tokensPerSecond must be a number > 0/],
      ["tool call without name", { responses: [{ toolCalls: [{ arguments: {} }] }] }, /toolCalls\[0\]\.name must be a non-empty string/],
      ["tool arguments not an object", { responses: [{ toolCalls: [{ name: "x", arguments: [1] }] }] }, /arguments must be a JSON object/],
      ["error without message", { responses: [{ error: { retryable: true } }] }, /error\.message must be a non-empty string/],
      ["error with tool calls", { responses: [{ error: { message: "x" }, toolCalls: [{ name: "y" }] }] }, /cannot be combined/],
    ];
    it.each(invalid)("rejects a script with %s at construction", (_label, script, problem) => {
      expect(() => registry(script)).toThrow(problem);
      expect(() => registry(script)).toThrow(/^invalid faux script .*script\.json: /);
    });

    it("rejects a missing script file", () => {
      expect(() => new ModelRegistry({ paths: home.paths, env: home.env, fauxScriptFile: join(home.root, "missing.json") })).toThrow(
        /cannot read faux script .*missing\.json \(ENOENT\)/,
      );
    });
  });
});
