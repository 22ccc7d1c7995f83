// zi/family first: it brings the Reflect polyfill tsyringe needs before any decorated class.
import { RpcMethod, closed, count, literal, str, type MethodFamily, type RpcHandler } from "../../../core/family/family-api.js";
import { describe, expect, it } from "@jest/globals";
import { resolveHandler, serveFamilies } from "../../../core/testing/testing-api.js";

/** Declared `{ pong: string, seen: integer >= 0 }`; returns what the test asks for, right or wrong. */
const replies: { next: unknown } = { next: { pong: "hi", seen: 0 } };

@RpcMethod({ summary: "Answers whatever the test set.", result: closed({ pong: str, seen: count }) })
class LooseMethod implements RpcHandler {
  handle() {
    return replies.next as { pong: string; seen: number };
  }
}

// The compiler checks handle() against the result schema: each of these is a type error (and
// `npm run typecheck` fails if one stops being one, as an unused @ts-expect-error).
// @ts-expect-error a property of the wrong type
@RpcMethod({ summary: "s", result: closed({ pong: str, seen: count }) })
export class WrongTypeMethod implements RpcHandler {
  handle() {
    return { pong: 1, seen: 2 };
  }
}

// @ts-expect-error a required property missing, in a promise
@RpcMethod({ summary: "s", result: closed({ pong: str, seen: count }) })
export class MissingFieldMethod implements RpcHandler {
  async handle() {
    return { pong: "a" };
  }
}

// @ts-expect-error a value outside the literal's values
@RpcMethod({ summary: "s", result: closed({ mode: literal("all", "none") }) })
export class WrongLiteralMethod implements RpcHandler {
  handle() {
    return { mode: "some" as string };
  }
}

@RpcMethod({
  summary: "s",
  // @ts-expect-error a bare JSON Schema literal is not a typed Schema: results are built with the helpers
  result: { type: "object" },
})
export class BareSchemaMethod implements RpcHandler {
  handle() {
    return {};
  }
}

const family = { family: "typed-results-fixture", methods: { "typed-results-fixture.loose": LooseMethod } } satisfies MethodFamily;

describe("a method's result is its declared schema", () => {
  it("resolveHandler: a handler returning a value outside its schema throws, naming the field", async () => {
    replies.next = { pong: "hi", seen: 3 };
    expect(await resolveHandler(LooseMethod).handle()).toEqual({ pong: "hi", seen: 3 });
    replies.next = { pong: "hi", seen: -1 };
    expect(() => resolveHandler(LooseMethod).handle()).toThrow(/LooseMethod returned a result outside its declared schema: result\.seen/);
    replies.next = { pong: "hi", seen: 1, extra: true };
    expect(() => resolveHandler(LooseMethod).handle()).toThrow(/outside its declared schema/);
  });

  it("serveFamilies: request() rejects such a result, and close() fails the test", async () => {
    const app = serveFamilies([family]);
    replies.next = { pong: "ok", seen: 1 };
    expect(await app.request("typed-results-fixture.loose")).toEqual({ pong: "ok", seen: 1 });
    replies.next = { pong: 5, seen: 1 };
    await expect(app.request("typed-results-fixture.loose")).rejects.toThrow(/result outside its declared schema: typed-results-fixture.loose \(t2\): result\.pong/);
    await expect(app.close()).rejects.toThrow(/results outside their declared schemas/);
  });
});
