import { afterEach, describe, expect, it } from "@jest/globals";
import type { AgentSessionEvent } from "../../client/protocol-types.js";
import { ZiRpcError } from "../../client/zi-rpc-error.js";
import { BuiltZi, RECORD_EXTENSION } from "../support/built-zi.js";

afterEach(() => BuiltZi.killAll());

async function rejection(promise: Promise<unknown>): Promise<ZiRpcError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ZiRpcError)) throw new Error(`expected a ZiRpcError, got ${String(error)}`);
  return error;
}

describe("ZiClient against the built zi", () => {
  it("starts with the ready frame and answers typed requests", async () => {
    const zi = await BuiltZi.start();
    expect(zi.readyFrame.sequence).toBe(1);
    expect(zi.limits.maxInFlight).toBe(32);
    const state = await zi.getState();
    expect(state).toEqual(zi.readyFrame.state);
    const { models } = await zi.listModels();
    expect(models).toContainEqual(expect.objectContaining({ provider: "faux", id: "echo", configured: true }));
    const { model } = await zi.selectModel("faux", "echo");
    expect(model).toMatchObject({ provider: "faux", id: "echo" });
    expect(await zi.listThinking()).toEqual({ levels: ["off"], current: "off" });
    expect(await zi.selectThinking("high")).toEqual({ requested: "high", effective: "off", persisted: null });
    expect(await zi.setEvents("all")).toEqual({ mode: "all" });
    expect((await zi.close()).code).toBe(0);
  });

  it("streams the reply as events while promptAndAwait returns Zi's completion evidence", async () => {
    const zi = await BuiltZi.start();
    await zi.selectModel("faux", "echo");
    const events = zi.events();
    const result = await zi.promptAndAwait("hello there");
    expect(result.prompt).toMatchObject({ delivery: "direct", admission: "started", completionRevision: 1 });
    expect(result.completion).toEqual({ text: "Echo: hello there", textTruncated: false, stopReason: "stop" });
    expect(result.interrupted).toBe(false);
    expect(result.messageCount).toBe(2);

    const deltas: string[] = [];
    for await (const event of events) {
      if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") deltas.push(event.assistantMessageEvent.delta);
      if (event.type === "agent_end") break;
    }
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Echo: hello there");
    await zi.close();
  });

  it("keeps one completion watch across input that joins the cycle", async () => {
    const zi = await BuiltZi.start({ fauxScript: { responses: [{ text: "first reply", delayMs: 400 }, { text: "second reply" }] } });
    await zi.selectModel("faux", "scripted");
    const watch = zi.watch("cycle-1");
    expect(await watch.prompt("first")).toMatchObject({ admission: "started", completionRevision: 1 });
    expect(await watch.prompt("more", "follow_up")).toMatchObject({ admission: "joined", completionRevision: 2 });
    const settled = await watch.settle();
    expect(settled).toMatchObject({ completionId: "cycle-1", completionRevision: 2, messageCount: 4, interrupted: false });
    expect(settled.completion?.text).toBe("second reply");
    await zi.close();
  });

  it("interrupts the session when the work budget aborts and still reports the settlement", async () => {
    const zi = await BuiltZi.start({ fauxScript: { responses: [{ text: "never", delayMs: 60_000 }] } });
    await zi.selectModel("faux", "scripted");
    const budget = new AbortController();
    const stop = zi.onEvent((event) => {
      if (event.type === "agent_start") budget.abort();
    });
    const result = await zi.promptAndAwait("slow", { signal: budget.signal, completionId: "budget" });
    stop();
    expect(result.interrupted).toBe(true);
    expect(result.completionId).toBe("budget");
    expect((await zi.getState()).activity).toEqual({ type: "idle" });
    await zi.close();
  });

  it("pages every message and outcome by following nextStart", async () => {
    const zi = await BuiltZi.start({ extensions: [RECORD_EXTENSION] });
    await zi.selectModel("faux", "echo");
    for (const text of ["one", "two", "three"]) await zi.promptAndAwait(text);
    const messages = [];
    for await (const message of zi.allMessages({ pageSize: 2 })) messages.push(message);
    expect(messages.map((message) => message.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);

    for (const args of ["a", "b", "c"]) expect(await zi.runCommand("record", args)).toEqual({ message: `recorded ${args}` });
    const outcomes = [];
    for await (const outcome of zi.allOutcomes({ pageSize: 2 })) outcomes.push(outcome);
    expect(outcomes.map((outcome) => [outcome.index, outcome.operationId, outcome.evidence])).toEqual([
      [0, "op-a", { args: "a" }],
      [1, "op-b", { args: "b" }],
      [2, "op-c", { args: "c" }],
    ]);
    await zi.close();
  });

  it("refuses an unlisted command locally, and Zi refuses an unknown one with not_found", async () => {
    const zi = await BuiltZi.start({ extensions: [RECORD_EXTENSION] });
    expect((await zi.listCommands()).commands.map((command) => command.name).sort()).toEqual(["hang", "record"]);
    const local = await rejection(zi.runCommand("Record"));
    expect([local.code, local.applied, local.source]).toEqual(["not_found", "no", "client"]);
    const remote = await rejection(zi.invokeCommand("Record"));
    expect([remote.code, remote.applied, remote.source, remote.method]).toEqual(["not_found", "no", "response", "command.invoke"]);
    await zi.close();
  });

  it("interrupts a waiting command through the reserved path", async () => {
    const zi = await BuiltZi.start({ extensions: [RECORD_EXTENSION] });
    const running = rejection(zi.invokeCommand("hang"));
    while ((await zi.getState()).activity.type !== "running") await new Promise((resolve) => setImmediate(resolve));
    expect(await zi.interrupt()).toEqual({});
    const failed = await running;
    expect([failed.code, failed.applied]).toEqual(["operation_failed", "unknown"]);
    await zi.close();
  });

  it("routes protocol errors to their request and keeps the connection usable", async () => {
    const zi = await BuiltZi.start();
    const invalid = await rejection(zi.request("session.prompt", { delivery: "bogus" as "direct", text: "" }));
    expect([invalid.code, invalid.applied, invalid.source]).toEqual(["invalid_request", "no", "protocol_error"]);
    expect(invalid.fields.sort()).toEqual(["params.delivery", "params.text"]);
    const unknown = await rejection(zi.connection.request("session.nope"));
    expect(unknown.code).toBe("unknown_method");
    const missing = await rejection(zi.selectModel("nope", "x"));
    expect([missing.code, missing.applied, missing.source]).toEqual(["not_found", "no", "response"]);
    expect((await zi.getState()).activity.type).toBe("idle");
    await zi.close();
  });

  it("suppresses events with set_events none and resumes them with all", async () => {
    const zi = await BuiltZi.start();
    await zi.selectModel("faux", "echo");
    const seen: AgentSessionEvent[] = [];
    zi.onEvent((event) => seen.push(event));
    await zi.setEvents("none");
    await zi.promptAndAwait("quiet");
    expect(seen).toEqual([]);
    await zi.setEvents("all");
    await zi.promptAndAwait("loud");
    expect(seen.some((event) => event.type === "agent_end")).toBe(true);
    await zi.close();
  });

  it("closes cleanly: pending work is answered, iterators end, later requests are refused", async () => {
    const zi = await BuiltZi.start({ fauxScript: { responses: [{ text: "never", delayMs: 60_000 }] } });
    await zi.selectModel("faux", "scripted");
    const events = zi.events();
    await zi.prompt({ delivery: "direct", text: "slow", completionId: "c" });
    const idle = zi.awaitIdle({ completionId: "c" });
    expect((await zi.close()).code).toBe(0);
    // Zi interrupted the run on disconnect and answered the waiting request before exiting.
    await expect(idle).resolves.toMatchObject({ completionId: "c", completionRevision: 1 });
    const types: string[] = [];
    for await (const event of events) types.push(event.type);
    expect(types).toContain("agent_end");
    const refused = await rejection(zi.getState());
    expect(refused.code).toBe("connection_closed");
  });

  it("stops sending after a fatal framing error, while Zi still answers what it admitted", async () => {
    const zi = await BuiltZi.start({ fauxScript: { responses: [{ text: "never", delayMs: 60_000 }] } });
    await zi.selectModel("faux", "scripted");
    await zi.prompt({ delivery: "direct", text: "slow" });
    const events = zi.events();
    const idle = zi.awaitIdle();
    zi.connection.child.stdin.write(Buffer.from([0xc3, 0x28, 0x0a])); // invalid UTF-8
    // Zi interrupts the run on its shutdown path and answers the admitted await_idle.
    await expect(idle).resolves.toEqual({});
    const refused = await rejection(zi.getState());
    expect([refused.code, refused.source, refused.applied]).toEqual(["invalid_framing", "protocol_error", "no"]);
    await expect(
      (async () => {
        for await (const _event of events);
      })(),
    ).rejects.toMatchObject({ code: "invalid_framing" });
    expect((await zi.close()).code).toBe(1);
  });
});
