import "reflect-metadata";
// zi/family first: it brings the Reflect polyfill tsyringe needs before any decorated class.
import { LazyMethod, RpcMethod, anyValue, inject, lazy, type MethodFamily, type RpcHandler } from "../../../core/family/family-api.js";
import { describe, expect, it } from "@jest/globals";
import { IsString } from "class-validator";
import { container } from "tsyringe";
import { MethodRegistry } from "../../../core/kernel/method-registry.js";
import { serveFamilies } from "../../../core/testing/testing-api.js";
import { sessionFamily } from "../../../methods/session/session.family.js";

// Methods listed lazily (`lazy(...)`, `new LazyMethod(...)`): imported on their first request, and all
// of them checked by the composition root once the deferred startup has ended (core/boot/rpc-application.ts).

const req = (id: string, method: string, params?: object) => (params === undefined ? { version: 1, id, method } : { version: 1, id, method, params });

class TextParams {
  @IsString()
  text!: string;
}

@RpcMethod({ params: TextParams, summary: "test method", result: anyValue() })
class EchoMethod implements RpcHandler<TextParams> {
  handle(params: TextParams) {
    return { text: params.text };
  }
}

@RpcMethod({ summary: "test method", result: anyValue() })
class NowMethod implements RpcHandler {
  handle() {
    return { now: true };
  }
}

@RpcMethod({ summary: "test method", result: anyValue() })
class UnboundPortMethod implements RpcHandler {
  constructor(@inject(Symbol.for("test.lazy.unbound")) private readonly port: object) {}
  handle() {
    return { port: typeof this.port };
  }
}

@RpcMethod({ summary: "test method", result: anyValue(), awaitsStartup: true })
class FlaggedMethod implements RpcHandler {
  handle() {
    return {};
  }
}

class NoRulesParams {
  text?: string;
}

@RpcMethod({ params: NoRulesParams, summary: "test method", result: anyValue() })
class NoRulesMethod implements RpcHandler {
  handle() {
    return {};
  }
}

/** A LazyMethod whose import the test finishes: `imported` settles when admission has asked for it. */
function heldImport<C extends new (...args: any[]) => RpcHandler>(handlerClass: C, flags = {}) {
  let asked!: () => void;
  let finish!: () => void;
  const imported = new Promise<void>((resolve) => (asked = resolve));
  const released = new Promise<void>((resolve) => (finish = resolve));
  const entry = new LazyMethod(async () => (asked(), await released, handlerClass), flags);
  return { entry, imported, finish };
}

const ready = async <T>(value: T): Promise<T> => value;

describe("lazily listed methods", () => {
  it("a request that arrives before its class is loaded is held, with every record after it, until the class is imported and checked; order is kept", async () => {
    const echo = heldImport(EchoMethod);
    const family: MethodFamily = { family: "lz", methods: { "lz.echo": echo.entry, "lz.now": NowMethod } };
    const h = serveFamilies([family], { lazyClasses: true });
    h.send(req("a", "lz.echo", { text: "hi" }), req("b", "lz.now"), req("c", "lz.echo", { bogus: 1 }));
    await echo.imported;
    // Admission waits at `a`: `b`, whose class is loaded, has not been admitted either.
    expect(h.output.frames().map((frame) => frame.type)).toEqual(["ready"]);
    echo.finish();
    const frames = await h.frames(3);
    expect(frames.map((frame) => [frame.id, frame.type, frame.result ?? frame.error.code])).toEqual([
      ["a", "response", { text: "hi" }],
      ["b", "response", { now: true }],
      // The DTO came with the class: its rules apply from the first request.
      ["c", "protocol_error", "invalid_request"],
    ]);
    expect(await h.close()).toBe(0);
  });

  it("takes a lazy method's admission flags from its table entry: awaitsStartup holds it at the startup gate", async () => {
    let finish!: () => void;
    const startup = new Promise<void>((resolve) => (finish = resolve));
    const family: MethodFamily = { family: "lz", methods: { "lz.later": lazy(() => ready({ NowMethod }), "NowMethod", { awaitsStartup: true }), "lz.now": new LazyMethod(async () => EchoMethod, {}) } };
    const h = serveFamilies([family], { startup, lazyClasses: true });
    h.send(req("a", "lz.now", { text: "first" }), req("b", "lz.later"));
    expect((await h.frames(1)).map((frame) => frame.id)).toEqual(["a"]);
    expect(h.output.frames().map((frame) => frame.id)).toEqual([undefined, "a"]);
    finish();
    expect((await h.frames(2)).map((frame) => frame.id)).toEqual(["a", "b"]);
    expect(await h.close()).toBe(0);
  });

  it("a lazy method that awaits startup is held at the startup gate while its class loads: fatal framing behind it ends Zi at once", async () => {
    const later = heldImport(NowMethod, { awaitsStartup: true });
    const family: MethodFamily = { family: "lz", methods: { "lz.later": later.entry, "lz.now": NowMethod } };
    const h = serveFamilies([family], { startup: new Promise(() => undefined), lazyClasses: true });
    h.send(req("a", "lz.now"), req("b", "lz.later"));
    await later.imported;
    h.input.write(Buffer.from([0xff, 0x0a]));
    expect(await h.exit).toBe(1);
    expect(h.output.frames().map((frame) => [frame.type, frame.id ?? null])).toEqual([
      ["ready", null],
      ["response", "a"],
      ["protocol_error", null],
    ]);
  });

  it("the check after the startup imports every lazily listed class: a wrong wiring ends Zi with exit code 1, logged as a wiring failure", async () => {
    const family: MethodFamily = { family: "lz", methods: { "lz.now": lazy(() => ready({ NowMethod }), "NowMethod"), "lz.broken": lazy(() => ready({ UnboundPortMethod }), "UnboundPortMethod") } };
    const h = serveFamilies([family], { lazyClasses: true });
    // Nothing asks for lz.broken: the check finds it all the same.
    h.send(req("a", "lz.now"));
    expect(await h.exit).toBe(1);
    expect(h.logs.join("\n")).toMatch(/zi: cannot wire methods: cannot wire method "lz\.broken" \(UnboundPortMethod\)/);
  });

  it("the check after boot waits for the deferred startup: a first prompt's startup does not wait for the classes no request asked for", async () => {
    const order: string[] = [];
    let asked!: () => void;
    const checkAsked = new Promise<void>((resolve) => (asked = resolve));
    const unasked = new LazyMethod(async () => (order.push("check imports lz.unasked"), asked(), EchoMethod), {});
    const family: MethodFamily = { family: "lz", methods: { "lz.later": lazy(() => ready({ NowMethod }), "NowMethod", { awaitsStartup: true }), "lz.unasked": unasked } };
    const h = serveFamilies([family], { lazyClasses: true });
    const afterReady = h.module.afterReady.bind(h.module);
    h.module.afterReady = () => (order.push("startup"), afterReady());
    h.send(req("a", "lz.later"));
    expect((await h.frames(1)).map((frame) => frame.id)).toEqual(["a"]);
    await checkAsked;
    expect(order).toEqual(["startup", "check imports lz.unasked"]);
    expect(await h.close()).toBe(0);
  });

  it("never runs a handler whose check failed: its request stays unanswered and Zi ends with exit code 1", async () => {
    const family: MethodFamily = { family: "lz", methods: { "lz.broken": lazy(() => ready({ NoRulesMethod }), "NoRulesMethod"), "lz.now": NowMethod } };
    const h = serveFamilies([family], { lazyClasses: true });
    h.send(req("a", "lz.broken"), req("b", "lz.now"));
    expect(await h.exit).toBe(1);
    expect(h.logs.join("\n")).toContain("zi: cannot wire methods: params class NoRulesParams declares no validated properties");
    // Neither the failed method nor anything behind it was admitted.
    expect(h.output.frames().map((frame) => frame.type)).toEqual(["ready"]);
  });

  it("refuses a lazily listed class whose @RpcMethod gives an admission flag (its table entry says them), and a module that fails to import", async () => {
    const flagged = MethodRegistry.build(container.createChildContainer(), [{ family: "lz", methods: { "lz.flagged": lazy(() => ready({ FlaggedMethod }), "FlaggedMethod") } }]);
    await expect(flagged.checkAll()).rejects.toThrow(/method "lz\.flagged" is listed lazily: its slot, concurrent and awaitsStartup belong in its table entry, not in FlaggedMethod's @RpcMethod/);
    const failing = MethodRegistry.build(container.createChildContainer(), [{ family: "lz", methods: { "lz.gone": new LazyMethod(() => Promise.reject(new Error("no such file")), {}) } }]);
    await expect(failing.checkAll()).rejects.toThrow('cannot load method "lz.gone": no such file');
    // A wrong name is an error of the table itself, found before any class is imported.
    expect(() => MethodRegistry.build(container.createChildContainer(), [{ family: "lz", methods: { "other.x": heldImport(NowMethod).entry } }])).toThrow(/outside its family's prefix/);
  });

  it("knows every name at boot: an unknown method is answered without importing anything, a known one is loaded once", async () => {
    let imports = 0;
    const family: MethodFamily = { family: "lz", methods: { "lz.now": new LazyMethod(async () => (imports++, NowMethod), {}) } };
    const registry = MethodRegistry.build(container.createChildContainer(), [family]);
    expect(registry.names()).toEqual(["lz.now"]);
    expect(registry.get("lz.now")).toBeUndefined();
    expect(registry.load("lz.nope")).toBeUndefined();
    const [first, second] = await Promise.all([registry.load("lz.now"), registry.load("lz.now")]);
    expect(first).toBe(second);
    expect(registry.get("lz.now")).toBe(first);
    await registry.checkAll();
    expect(imports).toBe(1);
  });

  it("the built-in families list every class lazily", () => {
    expect(Object.values(sessionFamily.methods).every((entry) => entry instanceof LazyMethod)).toBe(true);
  });
});
