import { describe, expect, it } from "@jest/globals";
import { readFileSync } from "node:fs";
import { PiCommands } from "../../core/pi-rpc/pi-commands.js";
import { PiExtensionUi } from "../../core/pi-rpc/pi-extension-ui.js";
import type { MethodCalls } from "../../core/pi-rpc/method-calls.js";
import { PiRpcZi } from "../support/pi-rpc-zi.js";

const DOC = readFileSync("docs/pi-rpc.md", "utf8");

/** The rows of the table under `heading`: first column (without backticks) → second column. */
function table(heading: string): Map<string, string> {
  const section = DOC.slice(DOC.indexOf(`\n${heading}\n`));
  const start = section.indexOf("\n| ");
  const lines = section.slice(start + 1).split("\n");
  const rows = new Map<string, string>();
  for (const line of lines.slice(2)) {
    if (!line.startsWith("| ")) break;
    const [name, status] = line.slice(2).split(" | ");
    rows.set(name!.replace(/`/g, ""), status!);
  }
  return rows;
}

/** Methods that answer nothing: a command that calls one is not refused up front. */
const NO_METHODS: MethodCalls = {
  call: () => Promise.reject(new Error("unexpected method call")),
  onEvent: () => () => undefined,
  has: () => false,
};

describe("docs/pi-rpc.md against pi 0.73.1's package", () => {
  const commands = table("## Commands");

  it("lists every command of pi's RpcCommand union, and the front end serves exactly those", () => {
    const union = PiRpcZi.commandUnion();
    expect(union.length).toBeGreaterThan(25);
    expect([...commands.keys()].sort()).toEqual([...union].sort());
    const front = new PiCommands(NO_METHODS, new PiExtensionUi(NO_METHODS, async () => undefined, () => undefined), undefined);
    expect([...front.table.keys()].sort()).toEqual([...union].sort());
    for (const status of commands.values()) expect(["same", "different", "not supported"]).toContain(status);
  });

  it("a command marked not supported is refused with its reason, before any method is called", async () => {
    const front = new PiCommands(NO_METHODS, new PiExtensionUi(NO_METHODS, async () => undefined, () => undefined), undefined);
    for (const [type, status] of commands) {
      const refusal = await front.table
        .get(type)!
        .run({ type })
        .then(
          () => "answered",
          (error: Error) => error.message,
        );
      if (status === "not supported") expect(refusal).toMatch(new RegExp(`^${type} is not supported by Zi: .{20,}`));
      else expect(refusal).not.toMatch(/is not supported by Zi:/);
    }
  });

  it("lists every event of pi's rpc.md Event Types table", () => {
    const events = table("## Events");
    expect([...events.keys()].sort()).toEqual(PiRpcZi.documentedEvents().sort());
    for (const status of events.values()) expect(["same", "different", "not supported"]).toContain(status);
  });

  it("lists every method of pi's RpcExtensionUIRequest union", () => {
    const ui = table("## Extension UI");
    expect([...ui.keys()].sort()).toEqual(PiRpcZi.extensionUiMethods().sort());
  });
});
