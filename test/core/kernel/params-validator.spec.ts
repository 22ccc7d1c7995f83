import "reflect-metadata";
import { describe, expect, it } from "@jest/globals";
import { ValidateNested } from "class-validator";
import { ParamsValidator } from "../../../core/kernel/params-validator.js";
import { RpcError } from "../../../core/kernel/rpc-error.js";
import type { ParamsClass } from "../../../core/kernel/rpc-method-metadata.js";
import { ReplacePlanParams } from "../../../plugins/work-plan/replace-plan.params.js";
import { LeafParams, TreeParams } from "../../fixtures/nested-params.js";

class UndeclaredNestedParams {
  @ValidateNested()
  inner!: LeafParams;
}

const PROTOTYPE_KEYS = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "bogus"];

function problems(dto: ParamsClass, json: string): { field: string; problem: string }[] {
  const validator = new ParamsValidator();
  validator.prepare(dto);
  try {
    validator.admit(dto, JSON.parse(json));
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe("invalid_request");
    return (error as RpcError).details as { field: string; problem: string }[];
  }
}

describe("ParamsValidator with nested DTOs", () => {
  it("admits a valid nested record as instances of the nested DTOs", () => {
    const validator = new ParamsValidator();
    validator.prepare(TreeParams);
    const admitted = validator.admit(TreeParams, { size: 1, leaf: { name: "a" }, children: [{ size: 2 }] }) as TreeParams;
    expect(admitted).toBeInstanceOf(TreeParams);
    expect(admitted.leaf).toBeInstanceOf(LeafParams);
    expect(admitted.children![0]).toBeInstanceOf(TreeParams);
  });

  it.each(PROTOTYPE_KEYS)("refuses the key %s at the top level, in a nested DTO and in an array of them", (key) => {
    for (const value of ["1", "{}", '"x"', "null"]) {
      expect(problems(TreeParams, `{"size":1,"${key}":${value}}`)).toEqual([{ field: `params.${key}`, problem: "unknown field" }]);
      expect(problems(TreeParams, `{"size":1,"leaf":{"name":"a","${key}":${value}}}`)).toEqual([
        { field: `params.leaf.${key}`, problem: "unknown field" },
      ]);
      expect(problems(TreeParams, `{"size":1,"children":[{"size":2},{"size":3,"${key}":${value}}]}`)).toEqual([
        { field: `params.children.1.${key}`, problem: "unknown field" },
      ]);
    }
  });

  it("validates nested values and refuses non-objects where a nested DTO belongs", () => {
    expect(problems(TreeParams, '{"size":1,"leaf":{"name":5}}').map((p) => p.field)).toEqual(["params.leaf.name"]);
    expect(problems(TreeParams, '{"size":1,"leaf":"text"}').map((p) => p.field)).toEqual(["params.leaf"]);
    expect(problems(TreeParams, '{"size":1,"leaf":{}}').map((p) => p.field)).toEqual(["params.leaf.name"]);
  });

  it("bounds how deep a record may nest into DTOs", () => {
    let json = '{"size":1}';
    for (let i = 0; i < 40; i++) json = `{"size":1,"children":[${json}]}`;
    const found = problems(TreeParams, json);
    expect(found).toHaveLength(1);
    expect(found[0]!.problem).toMatch(/nests deeper than 16 levels/);
  });

  it("refuses at boot a @ValidateNested property whose DTO is not declared with @NestedParams", () => {
    expect(() => new ParamsValidator().prepare(UndeclaredNestedParams)).toThrow(/@NestedParams/);
  });

  it.each(PROTOTYPE_KEYS)("plan.replace refuses a step carrying %s like any unknown field", (key) => {
    for (const value of ["1", "{}"]) {
      expect(problems(ReplacePlanParams, `{"steps":[{"title":"t","status":"pending","${key}":${value}}]}`)).toEqual([
        { field: `params.steps.0.${key}`, problem: "unknown field" },
      ]);
    }
  });
});
