import { afterEach, describe, expect, it } from "@jest/globals";
import type * as PiAi from "@mariozechner/pi-ai";
import { RetryPolicy } from "../../../core/session/retry-policy.js";
import { SessionHarness, textOf } from "../../support/session-harness.js";

describe("RetryPolicy", () => {
  it("doubles the delay per attempt up to the cap", () => {
    const policy = new RetryPolicy({ maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 5000 });
    expect([1, 2, 3, 4, 5].map((attempt) => policy.delayFor(attempt))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });

  it("wait resolves false when aborted and true when the delay passes", async () => {
    const policy = new RetryPolicy({ maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 });
    const controller = new AbortController();
    const waiting = policy.wait(600_000, controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBe(false);
    await expect(policy.wait(1, new AbortController().signal)).resolves.toBe(true);
  });
});

describe("AgentSession auto-retry", () => {
  let harness: SessionHarness;
  afterEach(() => harness?.dispose());

  it("retries a transient error and succeeds", async () => {
    harness = await SessionHarness.create();
    const { runtime, session } = harness;
    runtime.respond(runtime.error("server overloaded"), runtime.error("server overloaded again"), runtime.text("finally"));
    await harness.ask("hi");

    expect(harness.ofType("auto_retry_start")).toEqual([
      { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 1, errorMessage: "server overloaded" },
      { type: "auto_retry_start", attempt: 2, maxAttempts: 3, delayMs: 2, errorMessage: "server overloaded again" },
    ]);
    expect(harness.ofType("auto_retry_end")).toEqual([{ type: "auto_retry_end", success: true, attempt: 2 }]);
    expect(session.getState().retry).toEqual({ type: "idle" });
    expect(session.getState().activity).toEqual({ type: "idle" });
    // The failed attempts stay in the transcript but were never replayed to the model.
    const stopReasons = harness.messages().map((message) => (message.role === "assistant" ? message.stopReason : message.role));
    expect(stopReasons).toEqual(["user", "error", "error", "stop"]);
    for (const context of runtime.contexts) expect(context.messages.map((message) => message.role)).toEqual(["user"]);
    expect(textOf(harness.messages().at(-1)!)).toBe("finally");
  });

  it("gives up after maxAttempts retries and ends failed", async () => {
    harness = await SessionHarness.create({ retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const { runtime, session } = harness;
    runtime.respond(runtime.error("overloaded 1"), runtime.error("overloaded 2"), runtime.error("overloaded 3"), runtime.text("unused"));
    await harness.ask("hi");
    expect(runtime.callCount).toBe(3);
    expect(harness.ofType("auto_retry_start").map((event) => event.attempt)).toEqual([1, 2]);
    expect(harness.ofType("auto_retry_end")).toEqual([{ type: "auto_retry_end", success: false, attempt: 2, finalError: "overloaded 3" }]);
    expect(session.getState().activity).toEqual({ type: "failed", errorMessage: "overloaded 3" });
  });

  it("does not retry a fatal error", async () => {
    harness = await SessionHarness.create();
    const { runtime } = harness;
    runtime.respond(runtime.error("unauthorized"), runtime.text("unused"));
    await harness.ask("hi");
    expect(runtime.callCount).toBe(1);
    expect(harness.ofType("auto_retry_start")).toEqual([]);
    expect((harness.messages().at(-1) as PiAi.AssistantMessage).stopReason).toBe("error");
  });

  it("maxAttempts 0 disables retrying", async () => {
    harness = await SessionHarness.create({ retry: { maxAttempts: 0 } });
    harness.runtime.respond(harness.runtime.error("overloaded"), harness.runtime.text("unused"));
    await harness.ask("hi");
    expect(harness.runtime.callCount).toBe(1);
    expect(harness.session.getState().activity.type).toBe("failed");
  });
});
