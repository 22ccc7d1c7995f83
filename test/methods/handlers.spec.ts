// Jest links ESM modules concurrently: only a first import in the test file itself is sure to load
// reflect-metadata before tsyringe (zi/testing imports it too, which is enough under plain Node).
import "reflect-metadata";
import { describe, expect, it, jest } from "@jest/globals";
import { requestContext, resolveHandler } from "../../core/testing/testing-api.js";
import { EventMode } from "../../core/kernel/event-mode.js";
import { RpcError } from "../../core/kernel/rpc-error.js";
import { EVENT_MODE } from "../../core/kernel/kernel-ports.js";
import { MODELS, type ModelPort } from "../../core/ports/model.port.js";
import { SESSION, type SessionPort } from "../../core/ports/session.port.js";
import { THINKING, type ThinkingPort } from "../../core/ports/thinking.port.js";
import { SetEventsMethod } from "../../methods/connection/set-events.method.js";
import { ListModelsMethod } from "../../methods/model/list-models.method.js";
import { SelectModelMethod } from "../../methods/model/select-model.method.js";
import { AwaitIdleMethod } from "../../methods/session/await-idle.method.js";
import { CompactMethod } from "../../methods/session/compact.method.js";
import { GetMessagesMethod } from "../../methods/session/get-messages.method.js";
import { GetOutcomesMethod } from "../../methods/session/get-outcomes.method.js";
import { GetStateMethod } from "../../methods/session/get-state.method.js";
import { GetUsageMethod } from "../../methods/session/get-usage.method.js";
import { InterruptMethod } from "../../methods/session/interrupt.method.js";
import { PromptMethod } from "../../methods/session/prompt.method.js";
import { ListThinkingMethod } from "../../methods/thinking/list-thinking.method.js";
import { SelectThinkingMethod } from "../../methods/thinking/select-thinking.method.js";
import { SPEC_READY_STATE } from "../support/spec-ready-state.js";


function sessionMock(): jest.Mocked<SessionPort> {
  return {
    getState: jest.fn(() => ({ sessionId: "s", ...SPEC_READY_STATE }) as never),
    describeToolCall: jest.fn((toolName: string) => ({ info: { kind: "other" as const, title: toolName, locations: [] }, changes: [] })),
    subscribe: jest.fn(() => () => {}),
    prompt: jest.fn(async () => ({ delivery: "direct" as const, admission: "started" as const })),
    interrupt: jest.fn(async () => {}),
    awaitIdle: jest.fn(async () => ({})),
    getMessages: jest.fn(() => ({ start: 0, total: 0, nextStart: null, messages: [] })),
    getOutcomes: jest.fn(() => ({ start: 0, total: 0, nextStart: null, outcomes: [] })),
    imageRefusal: jest.fn(() => undefined),
    setBudget: jest.fn(() => ({ limits: {}, used: { run: {}, session: {} }, left: {}, exceeded: null }) as never),
    getUsage: jest.fn(() => USAGE),
    getContext: jest.fn(() => null),
    compact: jest.fn(async () => ({ summary: "the gist", firstKeptEntryId: "e7", tokensBefore: 900 })),
  };
}

const TOTALS = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: 0.5, modelCalls: 1, toolCalls: 4 };
const USAGE = { session: TOTALS, run: { ...TOTALS, active: false }, children: { ...TOTALS, tasks: 1 } };
const PNG = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" as const };

describe("session family handlers", () => {
  it("session.compact hands the instructions (or none) to the session and answers its compaction", async () => {
    const session = sessionMock();
    const handler = resolveHandler(CompactMethod, { [SESSION]: session });
    await expect(handler.handle({ instructions: "keep the file names" })).resolves.toEqual({ summary: "the gist", firstKeptEntryId: "e7", tokensBefore: 900 });
    await handler.handle(undefined);
    await handler.handle({});
    expect(session.compact.mock.calls).toEqual([["keep the file names"], [undefined], [undefined]]);
  });

  it("session.compact passes the session's refusal through", async () => {
    const session = sessionMock();
    session.compact.mockRejectedValueOnce(new RpcError("operation_failed", "session is running; wait until it is idle"));
    await expect(resolveHandler(CompactMethod, { [SESSION]: session }).handle({})).rejects.toMatchObject({ code: "operation_failed" });
  });

  it("session.get_state returns the port's state", () => {
    const session = sessionMock();
    expect(resolveHandler(GetStateMethod, { [SESSION]: session }).handle()).toEqual({ sessionId: "s", ...SPEC_READY_STATE });
  });

  it("session.get_messages defaults start to 0 and limit to 100", () => {
    const session = sessionMock();
    const handler = resolveHandler(GetMessagesMethod, { [SESSION]: session });
    handler.handle({});
    handler.handle({ start: 5, limit: 7 });
    expect(session.getMessages.mock.calls).toEqual([[0, 100], [5, 7]]);
  });

  it("session.get_outcomes defaults start to 0 and limit to 100", () => {
    const session = sessionMock();
    const handler = resolveHandler(GetOutcomesMethod, { [SESSION]: session });
    handler.handle({});
    handler.handle({ start: 3, limit: 1 });
    expect(session.getOutcomes.mock.calls).toEqual([[0, 100], [3, 1]]);
  });

  it("session.prompt passes delivery, text and completionId through and returns the admission", async () => {
    const session = sessionMock();
    session.prompt.mockResolvedValueOnce({ delivery: "steer", admission: "joined", completionRevision: 2 });
    const result = await resolveHandler(PromptMethod, { [SESSION]: session }).handle({ delivery: "steer", text: "hi", completionId: "c" });
    expect(session.prompt).toHaveBeenCalledWith({ delivery: "steer", text: "hi", completionId: "c" });
    expect(result).toEqual({ delivery: "steer", admission: "joined", completionRevision: 2 });
  });

  it("session.prompt hands images to the session as plain image parts", async () => {
    const session = sessionMock();
    await resolveHandler(PromptMethod, { [SESSION]: session }).handle({ delivery: "direct", text: "look", images: [PNG] });
    expect(session.prompt).toHaveBeenCalledWith({ delivery: "direct", text: "look", completionId: undefined, images: [PNG] });
  });

  it("session.prompt refuses images the selected model cannot take synchronously, naming params.images, and admits nothing", () => {
    const session = sessionMock();
    session.imageRefusal.mockReturnValue("the selected model p/m does not accept images");
    const handler = resolveHandler(PromptMethod, { [SESSION]: session });
    let thrown: unknown;
    try {
      void handler.handle({ delivery: "direct", text: "look", images: [PNG] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "invalid_request", details: [{ field: "params.images", problem: "the selected model p/m does not accept images" }] });
    expect(session.prompt).not.toHaveBeenCalled();
    // Without images the model's input does not matter.
    void handler.handle({ delivery: "direct", text: "plain" });
    expect(session.prompt).toHaveBeenCalledTimes(1);
  });

  it("session.get_usage returns the port's usage", () => {
    const session = sessionMock();
    expect(resolveHandler(GetUsageMethod, { [SESSION]: session }).handle()).toEqual(USAGE);
  });

  it("session.interrupt answers {} after the session settles", async () => {
    const session = sessionMock();
    let settle!: () => void;
    session.interrupt.mockReturnValueOnce(new Promise<void>((resolve) => (settle = resolve)));
    let answered = false;
    const pending = resolveHandler(InterruptMethod, { [SESSION]: session }).handle().then((r) => ((answered = true), r));
    await Promise.resolve();
    expect(answered).toBe(false);
    settle();
    expect(await pending).toEqual({});
  });

  it("session.await_idle passes the completion id and the request's abort signal", async () => {
    const session = sessionMock();
    const controller = new AbortController();
    await resolveHandler(AwaitIdleMethod, { [SESSION]: session }).handle({ completionId: "c1" }, requestContext({ signal: controller.signal }));
    expect(session.awaitIdle).toHaveBeenCalledWith("c1", controller.signal);
  });
});

describe("model and thinking family handlers", () => {
  const models = (): jest.Mocked<ModelPort> => ({
    list: jest.fn(async () => [{ provider: "faux", id: "echo", name: "Echo", reasoning: false, input: ["text" as const], contextWindow: 1, maxTokens: 1, configured: true }]),
    select: jest.fn(async (provider: string, id: string) => ({ provider, id, name: id, reasoning: false, input: ["text" as const], contextWindow: 1, maxTokens: 1 })),
  });

  it("model.list wraps the catalogue in { models }", async () => {
    const result = await resolveHandler(ListModelsMethod, { [MODELS]: models() }).handle();
    expect(result.models[0]).toMatchObject({ provider: "faux", id: "echo", configured: true });
  });

  it("model.select returns { model } from the port", async () => {
    const port = models();
    const result = await resolveHandler(SelectModelMethod, { [MODELS]: port }).handle({ provider: "faux", id: "echo" });
    expect(port.select).toHaveBeenCalledWith("faux", "echo");
    expect(result.model).toMatchObject({ provider: "faux", id: "echo" });
  });

  it("thinking.list and thinking.select delegate to the port", async () => {
    const thinking: jest.Mocked<ThinkingPort> = {
      list: jest.fn(() => ({ levels: ["off" as const], current: "off" as const })),
      select: jest.fn(async () => ({ requested: "high" as const, effective: "off" as const, persisted: "project" as const })),
    };
    expect(resolveHandler(ListThinkingMethod, { [THINKING]: thinking }).handle()).toEqual({ levels: ["off"], current: "off" });
    expect(await resolveHandler(SelectThinkingMethod, { [THINKING]: thinking }).handle({ level: "high", scope: "project" })).toEqual({
      requested: "high",
      effective: "off",
      persisted: "project",
    });
    expect(thinking.select).toHaveBeenCalledWith("high", "project");
  });
});

describe("connection family handlers", () => {
  it("connection.set_events switches the connection's mode, defaulting to all", () => {
    const mode = new EventMode();
    const handler = resolveHandler(SetEventsMethod, { [EVENT_MODE]: mode });
    expect(handler.handle({ mode: "none" })).toEqual({ mode: "none" });
    expect(mode.current).toBe("none");
    expect(handler.handle({})).toEqual({ mode: "all" });
    expect(mode.current).toBe("all");
  });
});
