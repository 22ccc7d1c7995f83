import "reflect-metadata";
import { afterEach, describe, expect, it } from "@jest/globals";
import type { MethodMapOf } from "../../../core/kernel/method-map.js";
import { composeFamilies } from "../../../core/extensions/plugin-composition.js";
import { generateProtocolSchema } from "../../../core/schema/protocol-schema.js";
import { SchemaChecker } from "../../../core/schema/schema-checker.js";
import { BUILTIN_FAMILIES } from "../../../methods/builtin-families.js";
import { connectionFamily } from "../../../methods/connection/connection.family.js";
import { builtinPlugins } from "../../../plugins/builtin-plugins.js";
import { echoFamily } from "../../fixtures/echo-family/echo.family.js";
import type { PingParams } from "../../fixtures/echo-family/ping.params.js";
import { KernelHarness } from "../../support/kernel-harness.js";

// What a newcomer does to add a family: the files of test/fixtures/echo-family/ and one entry in a
// family list. Nothing in core/ and no other test changes; everything below follows by itself.
const families = [...BUILTIN_FAMILIES, echoFamily] as const;

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Map = MethodMapOf<(typeof families)[number]>;
const typed: [Equal<Map["echo.ping"], { params: PingParams; result: { pong: string; seen: number } }>, Equal<keyof Map & "session.prompt", "session.prompt">] = [true, true];

const harnesses: KernelHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) {
    harness.input.end();
    await harness.exit;
  }
});

describe("adding a method family", () => {
  it("is served by the kernel, its own binding scoped to it", async () => {
    const harness = new KernelHarness({ families: [connectionFamily, echoFamily] });
    harnesses.push(harness.start());
    harness.send(harness.request("a", "echo.ping", { text: "hi" }), harness.request("b", "echo.ping", { text: "again" }), harness.request("c", "echo.ping", { text: "x", more: 1 }));
    const [a, b, c] = await harness.frames(3);
    expect(a).toMatchObject({ id: "a", ok: true, result: { pong: "hi", seen: 0 } });
    expect(b).toMatchObject({ id: "b", ok: true, result: { pong: "again", seen: 1 } });
    expect(c).toMatchObject({ type: "protocol_error", id: "c", error: { code: "invalid_request", details: [{ field: "params.more" }] } });
  });

  it("appears in zi schema with its contract, and its results match it", () => {
    const description = generateProtocolSchema(composeFamilies(families, builtinPlugins()));
    const ping = description.methods.find((method) => method.name === "echo.ping")!;
    expect(ping.summary).toBe("Answers the text back, with how many pings came before.");
    expect(ping.params.required).toEqual(["text"]);
    const checker = new SchemaChecker(description as never);
    expect(checker.check(ping.result, { pong: "hi", seen: 0 })).toEqual([]);
    expect(checker.check(ping.result, { pong: "hi" })).not.toEqual([]);
    expect(description.methods.map((method) => method.name)).toEqual(expect.arrayContaining(["plan.get", "session.prompt", "echo.ping"]));
  });

  it("is in the typed method map (checked by the compiler)", () => {
    expect(typed).toEqual([true, true]);
  });
});
