// Jest links ESM modules concurrently: only a first import in the test file itself is sure to load
// reflect-metadata before tsyringe (zi/testing imports it too, which is enough under plain Node).
import "reflect-metadata";
import { describe, expect, it, jest } from "@jest/globals";
import { resolveHandler } from "../../core/testing/testing-api.js";
import { ParamsValidator } from "../../core/kernel/params-validator.js";
import { composeMethods } from "../../core/kernel/method-catalog.js";
import { loadMethodClasses } from "../../core/kernel/lazy-method.js";
import { commandFamily } from "../../methods/command/command.family.js";
import { RpcError } from "../../core/kernel/rpc-error.js";
import { RPC_LIMITS } from "../../core/wire/limits.js";
import { COMMANDS, type CommandPort } from "../../core/ports/commands.port.js";
import { InvokeCommandMethod } from "../../methods/command/invoke-command.method.js";
import { InvokeCommandParams } from "../../methods/command/invoke-command.params.js";
import { ListCommandsMethod } from "../../methods/command/list-commands.method.js";

function commandsMock(): jest.Mocked<CommandPort> {
  return {
    list: jest.fn(() => [{ name: "deploy", description: "Ship it", source: "project" as const }]),
    invoke: jest.fn(async (name: string) => ({ message: `ran ${name}` })),
  };
}

function problems(params: Record<string, unknown>): string[] {
  const validator = new ParamsValidator();
  validator.prepare(InvokeCommandParams);
  try {
    validator.admit(InvokeCommandParams, params);
    return [];
  } catch (error) {
    expect((error as RpcError).code).toBe("invalid_request");
    return ((error as RpcError).details as readonly { field: string }[]).map((d) => d.field);
  }
}

describe("command family handlers", () => {
  it("command.list wraps the port's descriptors in { commands }", () => {
    const commands = commandsMock();
    expect(resolveHandler(ListCommandsMethod, { [COMMANDS]: commands }).handle()).toEqual({ commands: [{ name: "deploy", description: "Ship it", source: "project" }] });
  });

  it("command.invoke passes the name and raw arguments, defaulting arguments to the empty string", async () => {
    const commands = commandsMock();
    const handler = resolveHandler(InvokeCommandMethod, { [COMMANDS]: commands });
    expect(await handler.handle({ name: "deploy", arguments: "/x --y" })).toEqual({ message: "ran deploy" });
    await handler.handle({ name: "deploy" });
    expect(commands.invoke.mock.calls).toEqual([["deploy", "/x --y"], ["deploy", ""]]);
  });

  it("command.invoke lets the port's RpcError through (not_found stays not_found)", async () => {
    const commands = commandsMock();
    commands.invoke.mockRejectedValueOnce(new RpcError("not_found", "no command with this name"));
    await expect(resolveHandler(InvokeCommandMethod, { [COMMANDS]: commands }).handle({ name: "nope" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("command.invoke is concurrent (later requests are admitted meanwhile); command.list is ordered", async () => {
    await loadMethodClasses([commandFamily]);
    const [list, invoke] = composeMethods([commandFamily]);
    expect(invoke).toMatchObject({ name: "command.invoke", handlerClass: InvokeCommandMethod, concurrent: true, slot: "ordinary" });
    expect(list).toMatchObject({ name: "command.list", handlerClass: ListCommandsMethod, concurrent: false });
  });
});

describe("InvokeCommandParams", () => {
  it("bounds the name to 1..64 bytes and the arguments to 256 KiB, arguments optional but never null", () => {
    expect(problems({ name: "deploy" })).toEqual([]);
    expect(problems({ name: "x".repeat(RPC_LIMITS.maxCommandNameBytes), arguments: "a".repeat(RPC_LIMITS.maxCommandArgumentsBytes) })).toEqual([]);
    expect(problems({ name: "é".repeat(33) })).toEqual(["params.name"]);
    expect(problems({ name: "" })).toEqual(["params.name"]);
    expect(problems({})).toEqual(["params.name"]);
    expect(problems({ name: "d", arguments: "a".repeat(RPC_LIMITS.maxCommandArgumentsBytes + 1) })).toEqual(["params.arguments"]);
    expect(problems({ name: "d", arguments: null })).toEqual(["params.arguments"]);
    expect(problems({ name: "d", arguments: ["a"] })).toEqual(["params.arguments"]);
    expect(problems({ name: "d", args: "x" })).toEqual(["params.args"]);
  });
});
