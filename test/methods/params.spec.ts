import "reflect-metadata";
import { describe, expect, it } from "@jest/globals";
import { ParamsValidator } from "../../core/kernel/params-validator.js";
import type { ParamsClass } from "../../core/kernel/rpc-method-metadata.js";
import { RpcError } from "../../core/kernel/rpc-error.js";
import { getRpcMethodDeclaration } from "../../core/kernel/rpc-method.decorator.js";
import { SetEventsParams } from "../../methods/connection/set-events.params.js";
import { SelectModelParams } from "../../methods/model/select-model.params.js";
import { AwaitIdleParams } from "../../methods/session/await-idle.params.js";
import { GetMessagesMethod } from "../../methods/session/get-messages.method.js";
import { GetOutcomesMethod } from "../../methods/session/get-outcomes.method.js";
import { GetTreeMethod } from "../../methods/session/get-tree.method.js";
import { ListMethod } from "../../methods/session/list.method.js";
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

  // Each paged method's window is its own class (methods/session/paged.params.ts): its bound, no other's.
  it.each([
    ["session.get_messages", GetMessagesMethod, 100],
    ["session.get_outcomes", GetOutcomesMethod, 100],
    ["session.list", ListMethod, 100],
    ["session.get_tree", GetTreeMethod, 500],
  ] as const)("%s: limit integer 1 up to its own page bound, start integer >= 0", (_name, method, max) => {
    const dto = getRpcMethodDeclaration(method)!.params!;
    expect(fields(dto, { start: 0, limit: 1 })).toEqual([]);
    expect(fields(dto, { limit: max })).toEqual([]);
    expect(fields(dto, { limit: max + 1 })).toEqual(["params.limit"]);
    expect(fields(dto, { limit: 0 })).toEqual(["params.limit"]);
    expect(fields(dto, { start: -1 })).toEqual(["params.start"]);
    expect(fields(dto, { bogus: 1 })).toEqual(["params.bogus"]);
  });

  it("session.list keeps its scope beside the window", () => {
    const dto = getRpcMethodDeclaration(ListMethod)!.params!;
    expect(fields(dto, { scope: "all", start: 3, limit: 100 })).toEqual([]);
    expect(fields(dto, { scope: "home" })).toEqual(["params.scope"]);
    expect(fields(getRpcMethodDeclaration(GetTreeMethod)!.params!, { scope: "all" })).toEqual(["params.scope"]);
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

  it("PromptParams images: padded base64 whose bytes match mimeType, at most 16 and 6 MiB, only with text; each problem names its field", () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const image = (data: string, mimeType = "image/png") => ({ type: "image", data, mimeType });
    const b64 = (bytes: number[], pad = 0) => Buffer.concat([Buffer.from(bytes), Buffer.alloc(pad)]).toString("base64");
    const prompt = (images: unknown, text = "look", delivery = "direct") => fields(PromptParams, { delivery, text, images });
    expect(prompt([image(png)])).toEqual([]);
    expect(prompt([])).toEqual([]);
    expect(prompt([image(b64([0xff, 0xd8, 0xff, 0xe0], 8), "image/jpeg")])).toEqual([]);
    expect(prompt([image(b64([...Buffer.from("GIF89a")], 6), "image/gif")])).toEqual([]);
    expect(prompt([image(b64([...Buffer.from("RIFF\0\0\0\0WEBPVP8 ")]), "image/webp")])).toEqual([]);
    expect(prompt([image(png), image(b64([0xff, 0xd8, 0xff, 0xe0], 8), "image/png")])).toEqual(["params.images.1.data"]);
    expect(prompt([image("not base64!")])).toEqual(["params.images.0.data"]);
    expect(prompt([image(`data:image/png;base64,${png}`)])).toEqual(["params.images.0.data"]);
    expect(prompt([image(png.slice(0, -1))])).toEqual(["params.images.0.data"]);
    expect(prompt([image("")])).toEqual(["params.images.0.data"]);
    expect(prompt([image(b64([1, 2, 3, 4, 5, 6, 7, 8, 9]))])).toEqual(["params.images.0.data"]);
    expect(prompt([image(png, "image/bmp")])).toEqual(["params.images.0.mimeType"]);
    expect(prompt([{ type: "picture", data: png, mimeType: "image/png" }])).toEqual(["params.images.0.type"]);
    expect(prompt([{ ...image(png), url: "x" }])).toEqual(["params.images.0.url"]);
    expect(prompt([{ data: png, mimeType: "image/png" }])).toEqual(["params.images.0.type"]);
    expect(prompt(Array.from({ length: 16 }, () => image(png)))).toEqual([]);
    expect(prompt(Array.from({ length: 17 }, () => image(png)))).toEqual(["params.images"]);
    const head = b64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]); // the PNG signature, no padding
    const padded = (length: number) => head + "A".repeat(length - head.length);
    expect(prompt([image(padded(6 * MiB))])).toEqual([]);
    expect(prompt([image(padded(3 * MiB)), image(padded(3 * MiB + 4))])).toEqual(["params.images"]);
    expect(prompt([image(png)], "", "continue")).toEqual(["params.images"]);
    expect(prompt([], "", "continue")).toEqual([]);
    expect(prompt(null)).toEqual(["params.images"]);
    expect(prompt("x")).toEqual(["params.images"]);
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
