// zi/family first: it brings the Reflect polyfill tsyringe needs before any decorated class.
import type { MethodFamily } from "../../../core/family/family-api.js";
import { describe, expect, it } from "@jest/globals";
import type { MethodMapOf } from "../../../core/kernel/method-map.js";
import { withPluginFamilies } from "../../../core/extensions/plugin-composition.js";
import { generateProtocolSchema } from "../../../core/schema/protocol-schema.js";
import { loadMethodClasses } from "../../../core/kernel/lazy-method.js";
import { SchemaChecker } from "../../../core/schema/schema-checker.js";
import { AnsweredError, serveFamilies } from "../../../core/testing/testing-api.js";
import { BUILTIN_FAMILIES } from "../../../methods/builtin-families.js";
import { builtinPlugins } from "../../../plugins/builtin-plugins.js";
import { addedFixtureFamily } from "../../fixtures/added-family/added.family.js";
import type { PingParams } from "../../fixtures/added-family/ping.params.js";

// What a newcomer does to add a family: the files of test/fixtures/added-family/ and one entry in a
// family list. Nothing in core/ and no other test changes; everything below follows by itself.
const served: readonly MethodFamily[] = withPluginFamilies(BUILTIN_FAMILIES, builtinPlugins());
const families = [...BUILTIN_FAMILIES, addedFixtureFamily] as const;

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Map = MethodMapOf<(typeof families)[number]>;
const typed: [Equal<Map["fixture-added-family.ping"], { params: PingParams; result: { pong: string; seen: number } }>, Equal<keyof Map & "session.prompt", "session.prompt">] = [
  true,
  true,
];

describe("adding a method family", () => {
  it("uses a name no real family has, so a newcomer's family never collides with it", () => {
    expect(served.map((family) => family.family)).not.toContain(addedFixtureFamily.family);
    expect(served.every((family) => /^[a-z][a-z_]*$/.test(family.family))).toBe(true);
  });

  it("is served through the real composition, its own binding scoped to it", async () => {
    const app = serveFamilies([addedFixtureFamily]);
    expect(await app.request("fixture-added-family.ping", { text: "hi" })).toEqual({ pong: "hi", seen: 0 });
    expect(await app.request("fixture-added-family.ping", { text: "again" })).toEqual({ pong: "again", seen: 1 });
    const refused = await app.request("fixture-added-family.ping", { text: "x", more: 1 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AnsweredError);
    expect(refused).toMatchObject({ code: "invalid_request", details: [{ field: "params.more" }] });
    expect(await app.close()).toBe(0);
  });

  it("takes per-token overrides over what its register binds", async () => {
    const { PING_COUNTER } = await import("../../fixtures/added-family/ping.method.js");
    const app = serveFamilies([addedFixtureFamily], { overrides: { [PING_COUNTER]: { seen: 41 } } });
    expect(await app.request("fixture-added-family.ping", { text: "hi" })).toEqual({ pong: "hi", seen: 41 });
    await app.close();
  });

  it("appears in zi schema with its contract, and its results match it", async () => {
    const served = withPluginFamilies(families, builtinPlugins());
    await loadMethodClasses(served);
    const description = generateProtocolSchema(served);
    const ping = description.methods.find((method) => method.name === "fixture-added-family.ping")!;
    expect(ping.summary).toBe("Answers the text back, with how many pings came before.");
    expect(ping.params.required).toEqual(["text"]);
    const checker = new SchemaChecker(description as never);
    expect(checker.check(ping.result, { pong: "hi", seen: 0 })).toEqual([]);
    expect(checker.check(ping.result, { pong: "hi" })).not.toEqual([]);
    expect(description.methods.map((method) => method.name)).toEqual(expect.arrayContaining(["plan.get", "session.prompt", "fixture-added-family.ping"]));
  });

  it("is in the typed method map (checked by the compiler)", () => {
    expect(typed).toEqual([true, true]);
  });
});
