import "reflect-metadata";
// zi/family first: it brings the Reflect polyfill tsyringe needs before any decorated class.
import { RpcMethod, SESSION, anyValue, type MethodFamily, type RpcHandler } from "../../../core/family/family-api.js";
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { IsString, ValidateBy } from "class-validator";
import { container } from "tsyringe";
import { MethodRegistry } from "../../../core/kernel/method-registry.js";
import { ParamsValidator } from "../../../core/kernel/params-validator.js";
import { serveFamilies } from "../../../core/testing/testing-api.js";
import { TestSessionModule } from "../../../core/testing/test-session-module.js";
import { connectInProcess } from "../../../core/boot/in-process-methods.js";
import { loadMethodClasses } from "../../../core/kernel/lazy-method.js";
import type { SessionPort } from "../../../core/ports/session.port.js";
import { sessionFamily } from "../../../methods/session/session.family.js";
import { PromptParams } from "../../../methods/session/prompt.params.js";
import { AwaitIdleParams } from "../../../methods/session/await-idle.params.js";

// A method's declared rehearsal params are admitted once after the deferred startup and thrown away
// (MethodRegistry.rehearseAdmissionsAfter, called by RpcApplication and connectInProcess): the first real request's admission then
// finds its DTO's validation compiled. Nothing of it may be seen.

/** Every value the `counted` rule was asked about: what reached the DTO's validation, in order. */
const checked: unknown[] = [];
const Counted = () => ValidateBy({ name: "counted", validator: { validate: (value) => (checked.push(value), true) } });

class NoteParams {
  @IsString()
  @Counted()
  text!: string;
}

const handled: string[] = [];

@RpcMethod({ params: NoteParams, rehearsal: { text: "rehearsed" }, summary: "test method", result: anyValue() })
class NoteMethod implements RpcHandler<NoteParams> {
  handle(params: NoteParams) {
    handled.push(params.text);
    return { text: params.text };
  }
}

@RpcMethod({ params: NoteParams, rehearsal: { text: 7 } as never, summary: "test method", result: anyValue() })
class WrongRehearsalMethod implements RpcHandler<NoteParams> {
  handle(params: NoteParams) {
    return { text: params.text };
  }
}

@RpcMethod({ rehearsal: {}, summary: "test method", result: anyValue() })
class ParamlessRehearsalMethod implements RpcHandler {
  handle() {
    return {};
  }
}

/** Turns of the event loop until `done()` or a bound; the rehearsal runs a few turns after the startup. */
async function turnsUntil(done: () => boolean, bound = 50): Promise<void> {
  for (let turn = 0; turn < bound && !done(); turn++) await new Promise((resolve) => setImmediate(resolve));
}

afterEach(() => {
  checked.length = 0;
  handled.length = 0;
  jest.restoreAllMocks();
});

describe("admission rehearsal", () => {
  it("admits a method's rehearsal params through its DTO's rules once the startup has ended, and does nothing else: no frame, no handler", async () => {
    let finish!: () => void;
    const startup = new Promise<void>((resolve) => (finish = resolve));
    const family: MethodFamily = { family: "rh", methods: { "rh.note": NoteMethod } };
    const h = serveFamilies([family], { startup });
    await turnsUntil(() => false, 20);
    // Not before the plugins' start-up: it would compete with it.
    expect(checked).toEqual([]);
    finish();
    await turnsUntil(() => checked.length > 0);
    expect(checked).toEqual(["rehearsed"]);
    await turnsUntil(() => false, 20);
    expect(checked).toEqual(["rehearsed"]);
    expect(handled).toEqual([]);
    expect(h.output.frames().map((frame) => frame.type)).toEqual(["ready"]);
    // The real request goes through the same rules, and is the first to reach the handler.
    expect(await h.request("rh.note", { text: "real" })).toEqual({ text: "real" });
    expect(checked).toEqual(["rehearsed", "real"]);
    expect(handled).toEqual(["real"]);
    expect(await h.close()).toBe(0);
  });

  it("logs a rehearsal its own DTO refuses, naming the method and the field, and serves on", async () => {
    const family: MethodFamily = { family: "rh", methods: { "rh.wrong": WrongRehearsalMethod, "rh.note": NoteMethod } };
    const h = serveFamilies([family]);
    await turnsUntil(() => h.logs.length > 0);
    expect(h.logs).toEqual(['zi: method "rh.wrong" refuses its own rehearsal params: [{"field":"params.text","problem":"text must be a string"}]']);
    expect(await h.request("rh.note", { text: "still served" })).toEqual({ text: "still served" });
    expect(await h.close()).toBe(0);
  });

  it("refuses, as wrong wiring, a rehearsal declared by a method that takes no params", () => {
    expect(() => MethodRegistry.build(container.createChildContainer(), [{ family: "rh", methods: { "rh.none": ParamlessRehearsalMethod } }])).toThrow(
      'method "rh.none" declares a rehearsal but takes no params',
    );
  });

  /** Records what reaches the validator, and any call of the session port: a state read, a journal entry, a run. */
  function recordingSession() {
    const admitted: unknown[] = [];
    const admit = ParamsValidator.prototype.admit;
    jest.spyOn(ParamsValidator.prototype, "admit").mockImplementation(function (this: ParamsValidator, dto, params) {
      const instance = admit.call(this, dto, params);
      admitted.push(instance);
      return instance;
    });
    const calls: string[] = [];
    const state = { status: "idle" };
    const session = new Proxy({}, { get: (_target, key) => (key === "getState" ? () => state : (...args: unknown[]) => void calls.push(`${String(key)}(${JSON.stringify(args)})`)) });
    return { admitted, calls, session: session as SessionPort };
  }

  async function expectBuiltinRehearsals(admitted: unknown[]): Promise<void> {
    await turnsUntil(() => admitted.length >= 2);
    const byClass = (dto: Function) => admitted.filter((instance) => instance instanceof dto);
    expect(byClass(PromptParams)).toEqual([expect.objectContaining({ delivery: "direct", completionId: "zi-rehearsal" })]);
    expect(byClass(AwaitIdleParams)).toEqual([expect.objectContaining({ completionId: "zi-rehearsal" })]);
    await turnsUntil(() => false, 20);
    expect(admitted).toHaveLength(2);
  }

  it("the built-in session family rehearses session.prompt and session.await_idle with params their DTOs admit, and never reaches the session", async () => {
    const { admitted, calls, session } = recordingSession();
    const h = serveFamilies([sessionFamily], { overrides: { [SESSION]: session } });
    await expectBuiltinRehearsals(admitted);
    expect(calls).toEqual([]);
    expect(h.output.frames().map((frame) => frame.type)).toEqual(["ready"]);
    expect(h.logs).toEqual([]);
    expect(await h.close()).toBe(0);
  });

  it("an in-process client (the interactive front end's) rehearses the same, once its startup has ended", async () => {
    const { admitted, calls, session } = recordingSession();
    let finish!: () => void;
    const startup = new Promise<void>((resolve) => (finish = resolve));
    const logs: string[] = [];
    await connectInProcess(new TestSessionModule({ session }), async () => (await loadMethodClasses([sessionFamily]), [sessionFamily]), { log: (line) => void logs.push(line), startup });
    await turnsUntil(() => false, 20);
    expect(admitted).toEqual([]);
    finish();
    await expectBuiltinRehearsals(admitted);
    expect(calls).toEqual([]);
    expect(logs).toEqual([]);
  });
});
