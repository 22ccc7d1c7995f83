import "reflect-metadata";
import { describe, expect, it } from "@jest/globals";
import { checkParams, generateProtocolSchema } from "../../../core/schema/protocol-schema.js";
import { IsEmail, IsInt, IsOptional, IsString, Matches } from "class-validator";
import { paramsSchema } from "../../../core/schema/dto-schema-builder.js";
import { SchemaChecker } from "../../../core/schema/schema-checker.js";
import { RPC_LIMITS } from "../../../core/wire/limits.js";
import { RpcMethod } from "../../../core/kernel/rpc-method.decorator.js";
import { anyValue } from "../../../core/wire/json-schema.js";
import { MaxBytes, NestedParams, Optional } from "../../../core/kernel/params-decorators.js";
import { ParamsValidator } from "../../../core/kernel/params-validator.js";
import { TreeParams } from "../../fixtures/nested-params.js";
import { THINKING_LEVELS } from "../../../core/wire/session-types.js";
import type { MethodFamily } from "../../../core/kernel/method-family.js";
import { BUILTIN_FAMILIES } from "../../../methods/builtin-families.js";
import { withPluginFamilies } from "../../../core/extensions/plugin-composition.js";
import { builtinPlugins } from "../../../plugins/builtin-plugins.js";
import { loadMethodClasses } from "../../../core/kernel/lazy-method.js";

// The built-in families list their classes lazily: a whole-table description imports them first, as `zi schema` does.
const SERVED = withPluginFamilies(BUILTIN_FAMILIES, builtinPlugins());
await loadMethodClasses(SERVED);

class EmailParams {
  @IsEmail()
  to!: string;
}

class MixedParams {
  @IsOptional()
  @IsInt()
  count?: number | null;

  @IsString()
  @Matches(/^[a-z]+$/)
  @MaxBytes(10)
  slug!: string;

  @Optional()
  @IsString()
  note?: string;
}

@RpcMethod({ params: TreeParams, summary: "test method", result: anyValue() })
class TreeMethod {
  handle() {
    return {};
  }
}

@RpcMethod({ summary: "test method", result: anyValue() })
class ReplacementGetState {
  handle() {
    return {};
  }
}

describe("generateProtocolSchema", () => {
  // What every built zi serves: the built-in families plus those of the compiled-in plugins.
  const description = generateProtocolSchema(SERVED);
  const method = (name: string) => description.methods.find((candidate) => candidate.name === name)!;

  it("describes every served method, each with the result and summary its @RpcMethod declares", () => {
    const names = description.methods.map((candidate) => candidate.name);
    expect(names).toEqual(expect.arrayContaining(["session.prompt", "session.await_idle", "model.select", "thinking.select", "connection.set_events", "command.invoke"]));
    expect(new Set(names).size).toBe(names.length);
    const undescribed = description.methods.filter((candidate) => candidate.summary.trim() === "" || Object.keys(candidate.result).length === 0);
    expect(undescribed.map((candidate) => candidate.name)).toEqual([]);
  });

  it("derives params from the DTO rules", () => {
    const prompt = method("session.prompt").params;
    expect(prompt.required).toEqual(["delivery", "text"]);
    expect(prompt.additionalProperties).toBe(false);
    expect(prompt.properties!.delivery).toEqual({ enum: ["direct", "steer", "follow_up", "continue"] });
    expect(prompt.properties!.text).toEqual({ type: "string", maxLength: RPC_LIMITS.maxPromptTextBytes, "x-maxBytes": RPC_LIMITS.maxPromptTextBytes });
    expect(prompt.properties!.completionId).toEqual({ type: "string", minLength: 1, maxLength: 256, "x-maxBytes": 256 });
    expect(method("session.get_messages").params.properties).toEqual({
      start: { type: "integer", minimum: 0 },
      limit: { type: "integer", minimum: 1, maximum: 100 },
    });
    expect(method("thinking.select").params.properties!.level).toEqual({ enum: [...THINKING_LEVELS] });
    expect(method("session.get_state").params).toEqual({ type: "object", properties: {}, required: [], additionalProperties: false });
  });

  it("carries concurrent, awaitsStartup, slot, error codes and the limits", () => {
    expect([method("session.interrupt").concurrent, method("session.interrupt").slot]).toEqual([true, "interrupt"]);
    expect([method("session.prompt").concurrent, method("session.prompt").slot]).toEqual([false, "ordinary"]);
    expect(method("model.select").errors).toEqual(["invalid_request", "capacity", "not_found", "operation_failed"]);
    // Only what reads what plugins and extensions register (or the context files read with them) waits for their loading.
    expect(description.methods.filter((m) => m.awaitsStartup).map((m) => m.name).sort()).toEqual([
      "command.invoke",
      "command.list",
      "mcp.add",
      "mcp.list",
      "mcp.remove",
      "permission.list",
      "permission.resolve",
      "permission.set_policy",
      "permission.set_sandbox",
      "plan.get",
      "plan.replace",
      "session.get_context",
      "session.prompt",
    ]);
    expect(method("session.get_state").errors).toEqual(["invalid_request", "capacity", "operation_failed"]);
    expect(description.limits).toEqual({ ...RPC_LIMITS });
    expect(description.protocolVersion).toBe(1);
    expect(JSON.parse(JSON.stringify(description))).toEqual(description);
  });

  it("lets a replacing family take the earlier family's place", () => {
    const replacing: MethodFamily = { family: "session", replaces: true, methods: { "session.get_state": ReplacementGetState } };
    const names = generateProtocolSchema([...BUILTIN_FAMILIES, replacing]).methods.map((candidate) => candidate.name);
    expect(names).toContain("session.get_state");
    expect(names).not.toContain("session.prompt");
  });

  it("describes each session event's payload, and refuses one that does not match", () => {
    const checker = new SchemaChecker(description as never);
    const frame = (event: object) => ({ version: 1, sequence: 2, type: "session_event", event });
    const check = (event: object) => checker.check(description.frames.session_event!, frame(event));
    expect(check({ type: "agent_end", reason: "completed" })).toEqual([]);
    expect(check({ type: "agent_end", reason: "failed", errorMessage: "boom" })).toEqual([]);
    expect(check({ type: "agent_end", reason: 5 })).not.toEqual([]);
    expect(check({ type: "agent_end", reason: "completed", extra: true })).not.toEqual([]);
    expect(check({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "a" } })).toEqual([]);
    expect(check({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: -1, delta: "a" } })).not.toEqual([]);
    expect(check({ type: "queue_update", steering: [{ text: "s" }], followUp: [] })).toEqual([]);
    expect(check({ type: "no_such_event" })).not.toEqual([]);
  });

  it("checks params the way the server names fields", () => {
    expect(checkParams(description, "session.prompt", { delivery: "direct", text: "hi" })).toEqual([]);
    expect(checkParams(description, "session.prompt", { delivery: "direct", text: "" }).map((p) => p.field)).toEqual(["params.text"]);
    expect(checkParams(description, "session.prompt", { delivery: "continue", text: "" })).toEqual([]);
    expect(checkParams(description, "session.get_state", { x: 1 })).toEqual([{ field: "params.x", problem: "unknown field" }]);
    expect(checkParams(description, "session.get_messages", undefined)).toEqual([]);
  });
});

describe("@NestedParams in zi schema", () => {
  const nested = generateProtocolSchema([{ family: "nested-fixture", methods: { "nested-fixture.tree": TreeMethod } }]);

  it("describes each nested DTO once in $defs, under its class name, so a DTO may nest itself", () => {
    const params = nested.methods[0]!.params;
    expect(params.properties!.leaf).toEqual({ type: "object", $ref: "#/$defs/LeafParams" });
    expect(params.properties!.children).toEqual({ type: "array", items: { $ref: "#/$defs/TreeParams" } });
    expect(nested.$defs.LeafParams).toEqual({ type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false });
    expect(nested.$defs.TreeParams!.properties!.children).toEqual(params.properties!.children);
  });

  it("accepts and blames exactly what the params validator does", () => {
    const validator = new ParamsValidator();
    validator.prepare(TreeParams);
    const server = (params: object): string[] => {
      try {
        validator.admit(TreeParams, params as Record<string, unknown>);
        return [];
      } catch (error) {
        return [...new Set(((error as { details: { field: string }[] }).details).map((detail) => detail.field))];
      }
    };
    const samples: object[] = [
      { size: 1 },
      { size: 1, leaf: { name: "a" } },
      { size: 1, leaf: { name: 5 } },
      { size: 1, leaf: "text" },
      { size: 1, leaf: [{ name: "a" }] },
      { size: 1, leaf: { name: "a", extra: 1 } },
      { size: 1, children: [{ size: 2 }, { size: 3, leaf: { name: "b" } }] },
      { size: 1, children: [{ size: 2, children: [{ size: "x" }] }] },
      { size: 1, children: { size: 2 } },
      { size: 1, children: [{ size: 2, bogus: true }] },
    ];
    for (const params of samples) {
      const schema = [...new Set(checkParams(nested, "nested-fixture.tree", params).map((problem) => problem.field))];
      expect([JSON.stringify(params), schema.length === 0]).toEqual([JSON.stringify(params), server(params).length === 0]);
    }
  });

  it("refuses two nested DTOs of the same name, or one named like a wire definition", () => {
    class SessionState {
      @IsString()
      id!: string;
    }
    class Holder {
      @NestedParams(() => SessionState)
      state!: SessionState;
    }
    @RpcMethod({ params: Holder, summary: "test method", result: anyValue() })
    class HolderMethod {
      handle() {
        return {};
      }
    }
    expect(() => generateProtocolSchema([{ family: "nested-fixture", methods: { "nested-fixture.holder": HolderMethod } }])).toThrow(/SessionState has the name of a wire definition/);
  });
});

describe("DtoSchemaBuilder", () => {
  it("refuses a validator it cannot describe, naming it", () => {
    expect(() => paramsSchema(EmailParams)).toThrow(/EmailParams\.to: validator "isEmail" has no JSON Schema mapping/);
  });

  it("maps IsOptional to nullable, Matches to pattern, and Zi's Optional to absent-only", () => {
    const schema = paramsSchema(MixedParams);
    expect(schema.required).toEqual(["slug"]);
    expect(schema.properties!.count).toEqual({ anyOf: [{ type: "integer" }, { type: "null" }] });
    expect(schema.properties!.slug).toEqual({ type: "string", maxLength: 10, "x-maxBytes": 10, pattern: "^[a-z]+$" });
    expect(schema.properties!.note).toEqual({ type: "string" });
  });
});

describe("SchemaChecker", () => {
  const checker = new SchemaChecker({ $defs: { Id: { type: "string", minLength: 1, "x-maxBytes": 4 } } });

  it("counts bytes for x-maxBytes and validator.js characters for lengths", () => {
    const id = { $ref: "#/$defs/Id" };
    expect(checker.check(id, "éé")).toEqual([]);
    expect(checker.check(id, "ééa")).toEqual([{ field: "", problem: "must be at most 4 UTF-8 bytes" }]);
    expect(checker.check(id, "\ud800")).toEqual([]); // 3 bytes, as Buffer.byteLength counts a lone surrogate
    expect(checker.check({ type: "string", maxLength: 1 }, "\ud83d\ude00")).toEqual([]);
    expect(checker.check({ type: "string", maxLength: 1 }, "a\uFE0F")).toEqual([]);
    expect(checker.check({ type: "string", minLength: 1 }, "")).toHaveLength(1);
  });

  it("reports one problem per field, with dotted paths, for objects, arrays and branches", () => {
    const schema = {
      type: "object" as const,
      properties: { list: { type: "array" as const, items: { type: "integer" as const, minimum: 0 } }, kind: { enum: ["a", "b"] }, text: { type: "string" as const } },
      required: ["kind"],
      additionalProperties: false,
      allOf: [{ if: { properties: { kind: { const: "a" } } }, then: { properties: { text: { not: { const: "" } } } } }],
    };
    expect(checker.check(schema, { kind: "a", text: "", list: [1, -1, "x"], extra: 1 })).toEqual([
      { field: "list.1", problem: "must be at least 0" },
      { field: "list.2", problem: "must be integer" },
      { field: "extra", problem: "unknown field" },
      { field: "text", problem: "matches a forbidden shape" },
    ]);
    expect(checker.check(schema, { kind: "b", text: "" })).toEqual([]);
    expect(checker.check({ oneOf: [{ type: "integer" }, { type: "number" }] }, 1)).toHaveLength(1);
    expect(checker.check({ type: ["integer", "null"] }, null)).toEqual([]);
  });
});
