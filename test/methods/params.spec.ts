import "reflect-metadata";
import { describe, expect, it } from "@jest/globals";
import { ParamsValidator } from "../../core/kernel/params-validator.js";
import type { ParamsClass } from "../../core/kernel/rpc-method-metadata.js";
import { RpcError } from "../../core/kernel/rpc-error.js";
import { SetEventsParams } from "../../methods/connection/set-events.params.js";
import { SelectModelParams } from "../../methods/model/select-model.params.js";
import { AwaitIdleParams } from "../../methods/session/await-idle.params.js";
import { PageParams } from "../../methods/session/page.params.js";
import { PromptParams } from "../../methods/session/prompt.params.js";
import { SelectThinkingParams } from "../../methods/thinking/select-thinking.params.js";

const MiB = 1024 * 1024;

function fields(dto: ParamsClass, params: Record<string, unknown>): string[] {
  const validator = new ParamsValidator();
  validator.prepare(dto);
  try {
    validator.admit(dto, params);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe("invalid_request");
    return ((error as RpcError).details as readonly { field: string }[]).map((d) => d.field);
  }
}

describe("params DTOs", () => {
  it("PageParams: start integer >= 0, limit integer 1..100, both optional but never null", () => {
    expect(fields(PageParams, {})).toEqual([]);
    expect(fields(PageParams, { start: 0, limit: 1 })).toEqual([]);
    expect(fields(PageParams, { start: 10, limit: 100 })).toEqual([]);
    expect(fields(PageParams, { start: -1 })).toEqual(["params.start"]);
    expect(fields(PageParams, { start: 1.5 })).toEqual(["params.start"]);
    expect(fields(PageParams, { limit: 0 })).toEqual(["params.limit"]);
    expect(fields(PageParams, { limit: 101 })).toEqual(["params.limit"]);
    expect(fields(PageParams, { limit: "5" })).toEqual(["params.limit"]);
    expect(fields(PageParams, { start: null })).toEqual(["params.start"]);
  });

  it("PromptParams: delivery enum, text up to 8 MiB, empty only for continue, completionId up to 256 bytes", () => {
    expect(fields(PromptParams, { delivery: "direct", text: "hi" })).toEqual([]);
    expect(fields(PromptParams, { delivery: "continue", text: "" })).toEqual([]);
    expect(fields(PromptParams, { delivery: "direct", text: "" })).toEqual(["params.text"]);
    expect(fields(PromptParams, { delivery: "steer", text: "" })).toEqual(["params.text"]);
    expect(fields(PromptParams, { delivery: "shout", text: "x" })).toEqual(["params.delivery"]);
    expect(fields(PromptParams, { delivery: "direct" })).toEqual(["params.text"]);
    expect(fields(PromptParams, { delivery: "direct", text: "x".repeat(8 * MiB) })).toEqual([]);
    expect(fields(PromptParams, { delivery: "direct", text: "x".repeat(8 * MiB + 1) })).toEqual(["params.text"]);
    expect(fields(PromptParams, { delivery: "direct", text: "é".repeat(4 * MiB) + "x" })).toEqual(["params.text"]);
    expect(fields(PromptParams, { delivery: "direct", text: "x", completionId: "c".repeat(256) })).toEqual([]);
    expect(fields(PromptParams, { delivery: "direct", text: "x", completionId: "c".repeat(257) })).toEqual(["params.completionId"]);
    expect(fields(PromptParams, { delivery: "direct", text: "x", completionId: "" })).toEqual(["params.completionId"]);
    expect(fields(PromptParams, { delivery: "direct", text: "x", completionId: null })).toEqual(["params.completionId"]);
  });

  it("AwaitIdleParams: optional completionId up to 256 bytes", () => {
    expect(fields(AwaitIdleParams, {})).toEqual([]);
    expect(fields(AwaitIdleParams, { completionId: "é".repeat(128) })).toEqual([]);
    expect(fields(AwaitIdleParams, { completionId: "é".repeat(128) + "x" })).toEqual(["params.completionId"]);
  });

  it("SelectModelParams: provider and id required, at most 256 bytes each", () => {
    expect(fields(SelectModelParams, { provider: "faux", id: "echo" })).toEqual([]);
    expect(fields(SelectModelParams, { provider: "p".repeat(257), id: "i".repeat(257) })).toEqual(["params.provider", "params.id"]);
    expect(fields(SelectModelParams, {})).toEqual(["params.provider", "params.id"]);
  });

  it("SelectThinkingParams: a known level and an optional scope", () => {
    for (const level of ["off", "minimal", "low", "medium", "high", "xhigh"]) expect(fields(SelectThinkingParams, { level })).toEqual([]);
    expect(fields(SelectThinkingParams, { level: "max" })).toEqual(["params.level"]);
    expect(fields(SelectThinkingParams, { level: "low", scope: "global" })).toEqual([]);
    expect(fields(SelectThinkingParams, { level: "low", scope: "user" })).toEqual(["params.scope"]);
  });

  it("SetEventsParams: all or none", () => {
    expect(fields(SetEventsParams, {})).toEqual([]);
    expect(fields(SetEventsParams, { mode: "none" })).toEqual([]);
    expect(fields(SetEventsParams, { mode: "some" })).toEqual(["params.mode"]);
  });
});
