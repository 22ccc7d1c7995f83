import "reflect-metadata";
import { describe, expect, it } from "@jest/globals";
import { requestContext, resolveHandler } from "../../../core/testing/testing-api.js";
import { inject } from "tsyringe";
import { RpcMethod } from "../../../core/kernel/rpc-method.decorator.js";
import { anyValue } from "../../../core/wire/json-schema.js";

const SYMBOL_TOKEN = Symbol("greeter");
const STRING_TOKEN = "prefix";

@RpcMethod({ summary: "test method", result: anyValue() })
class GreetMethod {
  constructor(
    @inject(SYMBOL_TOKEN) private readonly greeter: { greet(name: string): string },
    @inject(STRING_TOKEN) private readonly prefix: string,
  ) {}

  handle() {
    return { text: `${this.prefix}${this.greeter.greet("Ada")}` };
  }
}

describe("resolveHandler", () => {
  it("binds symbol and string tokens in a fresh child container for each call", () => {
    const first = resolveHandler(GreetMethod, { [SYMBOL_TOKEN]: { greet: (name: string) => `hi ${name}` }, [STRING_TOKEN]: "> " });
    const second = resolveHandler(GreetMethod, { [SYMBOL_TOKEN]: { greet: (name: string) => `yo ${name}` }, [STRING_TOKEN]: "" });
    expect(first.handle()).toEqual({ text: "> hi Ada" });
    expect(second.handle()).toEqual({ text: "yo Ada" });
  });

  it("fails on a token nobody bound, as boot would", () => {
    expect(() => resolveHandler(GreetMethod, { [STRING_TOKEN]: "" })).toThrow(/greeter/);
  });

  it("requestContext gives a signal that has not fired, and takes overrides", () => {
    const context = requestContext({ id: "x" });
    expect(context).toMatchObject({ id: "x", method: "test.method" });
    expect(context.signal.aborted).toBe(false);
  });
});

describe("serveFamilies: wrong wiring fails at boot, with its message", () => {
  it("a class without @RpcMethod is refused when the family is served, not as a request that waits", async () => {
    const { serveFamilies } = await import("../../../core/testing/testing-api.js");
    class Undecorated {
      handle() {
        return {};
      }
    }
    expect(() => serveFamilies([{ family: "probe", methods: { "probe.undecorated": Undecorated as never } }])).toThrow(
      'Undecorated ("probe.undecorated" in family "probe") has no @RpcMethod decorator',
    );
  });
});
