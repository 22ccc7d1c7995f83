import { afterEach, describe, expect, it } from "@jest/globals";
import { CommandCatalog } from "../../../core/extensions/command-catalog.js";
import { COMMAND_FEEDBACK_MAX_BYTES, CommandInvoker } from "../../../core/extensions/command-invoker.js";
import type { ExtensionCommand } from "../../../core/extensions/extension-api.js";
import { RpcError } from "../../../core/kernel/rpc-error.js";
import { SessionHarness } from "../../support/session-harness.js";

const harnesses: SessionHarness[] = [];
afterEach(() => {
  for (const harness of harnesses.splice(0)) harness.dispose();
});

/** A real AgentSession (no model needed: commands do not call one) behind the invoker. */
async function setup(commands: Record<string, ExtensionCommand["handler"]>) {
  const harness = await SessionHarness.create({ model: null });
  harnesses.push(harness);
  const catalog = new CommandCatalog();
  for (const [name, handler] of Object.entries(commands)) catalog.add({ name, command: { handler }, owner: { name: "ext.ts", origin: "project" } });
  const logs: string[] = [];
  const invoker = new CommandInvoker(catalog, harness.session, "/work/project", (line) => logs.push(line));
  return { harness, invoker, logs };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: RpcError) => ({ code: error.code, message: error.message, applied: error.applied }),
  );

describe("CommandInvoker over a real AgentSession", () => {
  it("runs the handler with the raw arguments while the session is running, then returns its feedback", async () => {
    const seen: unknown[] = [];
    const { harness, invoker } = await setup({
      echo: (args, context) => {
        seen.push(args, context.cwd, context.getState().activity.type, context.signal.aborted);
        return { message: `got ${args}` };
      },
      quiet: () => undefined,
      empty: () => ({}),
    });
    expect(await invoker.invoke("echo", "/not parsed  --x")).toEqual({ message: "got /not parsed  --x" });
    expect(seen).toEqual(["/not parsed  --x", "/work/project", "running", false]);
    expect(await invoker.invoke("quiet", "")).toEqual({});
    expect(await invoker.invoke("empty", "")).toEqual({});
    expect(harness.ofType("activity_changed").map((e) => (e.activity as { type: string }).type)).toEqual(["running", "idle", "running", "idle", "running", "idle"]);
    expect(harness.session.getState().messageCount).toBe(0);
    // The feedback is local: nothing but the journal's header entry exists.
    expect([...harness.journal.entries()].map((entry) => entry.type)).toEqual(["session"]);
  });

  it("answers not_found (applied no) for an unknown name without touching the session", async () => {
    const { harness, invoker } = await setup({});
    expect(await failure(invoker.invoke("missing", ""))).toEqual({ code: "not_found", message: "no command with this name", applied: "no" });
    expect(harness.events).toEqual([]);
  });

  it("is idle-only: a second command while one runs is operation_failed", async () => {
    let release!: () => void;
    const { invoker } = await setup({ hold: () => new Promise<void>((resolve) => (release = resolve)), other: () => ({ message: "ran" }) });
    const holding = invoker.invoke("hold", "");
    await new Promise((resolve) => setImmediate(resolve));
    expect(await failure(invoker.invoke("other", ""))).toEqual({ code: "operation_failed", message: "session is running; wait until it is idle", applied: "unknown" });
    release();
    expect(await holding).toEqual({});
    expect(await invoker.invoke("other", "")).toEqual({ message: "ran" });
  });

  it("is interrupted by session.interrupt: the handler's signal aborts and the invoke fails as interrupted", async () => {
    let signal!: AbortSignal;
    const { harness, invoker } = await setup({
      slow: (_args, context) =>
        new Promise((_, reject) => {
          signal = context.signal;
          context.signal.addEventListener("abort", () => reject(new Error("stopped")));
        }),
    });
    const invoking = failure(invoker.invoke("slow", ""));
    await new Promise((resolve) => setImmediate(resolve));
    await harness.session.interrupt();
    expect(signal.aborted).toBe(true);
    expect(await invoking).toEqual({ code: "operation_failed", message: 'command "slow" was interrupted', applied: "unknown" });
    expect(harness.session.getState().activity.type).toBe("idle");
  });

  it("stops waiting for a handler that ignores the interrupt", async () => {
    const { harness, invoker } = await setup({ deaf: () => new Promise(() => {}) });
    const invoking = failure(invoker.invoke("deaf", ""));
    await new Promise((resolve) => setImmediate(resolve));
    await harness.session.interrupt();
    expect((await invoking).message).toBe('command "deaf" was interrupted');
    expect(harness.session.getState().activity.type).toBe("idle");
  });

  it("turns a throw into operation_failed with a one-line message and logs the stack to stderr", async () => {
    const { invoker, logs } = await setup({ broken: () => Promise.reject(new Error("disk full\nat line 2")) });
    expect(await failure(invoker.invoke("broken", ""))).toEqual({ code: "operation_failed", message: 'command "broken" failed: disk full at line 2', applied: "unknown" });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^zi: command "broken" \(ext\.ts\) failed: Error: disk full/);
  });

  it("rejects an invalid result, and clips long feedback on a character boundary", async () => {
    const { invoker } = await setup({ number: () => ({ message: 42 }) as never, long: () => ({ message: "é".repeat(COMMAND_FEEDBACK_MAX_BYTES) }) });
    expect((await failure(invoker.invoke("number", ""))).message).toBe('command "number" returned an invalid result: message must be a string');
    const { message } = await invoker.invoke("long", "");
    expect(Buffer.byteLength(message!)).toBe(COMMAND_FEEDBACK_MAX_BYTES);
    expect(message).toBe("é".repeat(COMMAND_FEEDBACK_MAX_BYTES / 2));
  });

  it("lists commands with their source", async () => {
    const { invoker } = await setup({ a: () => {}, b: () => {} });
    expect(invoker.list()).toEqual([
      { name: "a", source: "project" },
      { name: "b", source: "project" },
    ]);
  });
});
