import { describe, expect, it } from "@jest/globals";
import type { AgentTool } from "../../../core/extensions/extension-api.js";
import type { ZiExtensionApi } from "../../../core/extensions/extension-api.js";
import { hostFixture } from "../../support/extension-fixtures.js";
import { looseEvent } from "../../support/loose-event.js";

const identity = (name: string) => ({ name, origin: "cli" as const });
const tool = (name: string): AgentTool => ({ name, description: "d", parameters: { type: "object" }, execute: async () => ({ content: [] }) });

describe("the extension API", () => {
  it("passes session writes through and exposes the session's paths and state", async () => {
    const { host, session } = hostFixture();
    let api!: ZiExtensionApi;
    expect(await host.activate(identity("writer"), (zi) => void (api = zi))).toBe(true);
    expect([api.name, api.cwd, api.ziHome]).toEqual(["writer", "/work/project", "/tmp/zi-home"]);
    expect(api.appendEntry("t", { a: 1 })).toEqual({ id: "e1" });
    expect(api.sendMessage({ customType: "t", content: "c", display: false })).toEqual({ id: "e2" });
    const outcome = api.recordOutcome({ operationId: "o", capability: "c", operation: "op", result: "ok", durationMs: 1 });
    expect(outcome).toMatchObject({ id: "e3", operationId: "o" });
    expect(api.replaceWorkPlan([{ title: "x", status: "pending" }]).revision).toBe(1);
    expect(api.getState().workPlan.revision).toBe(1);
    expect(session.entries.map((e) => e.type)).toEqual(["custom", "custom_message", "operation_outcome", "work_plan"]);
  });

  it("admits commands and tools only once the default export has settled, all together", async () => {
    const { host, session } = hostFixture();
    let release!: () => void;
    const loading = host.activate(identity("slow"), async (zi) => {
      zi.registerCommand("later", { handler() {} });
      zi.registerTool(tool("later_tool"));
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(host.commands.list()).toEqual([]);
    expect(session.tools.size).toBe(0);
    release();
    expect(await loading).toBe(true);
    expect(host.commands.list()).toEqual([{ name: "later", source: "cli" }]);
    expect([...session.tools.keys()]).toEqual(["later_tool"]);
  });

  it("admits onSystemPrompt hooks with the extension, under its name; a failed extension's hooks never run", async () => {
    const { host, promptHooks } = hostFixture();
    expect(await host.activate(identity("good"), (zi) => zi.onSystemPrompt(({ tools }) => `tools: ${tools.join(",")}`))).toBe(true);
    expect(
      await host.activate(identity("bad"), (zi) => {
        zi.onSystemPrompt(() => "never");
        throw new Error("broken");
      }),
    ).toBe(false);
    expect(await host.activate(identity("not-a-function"), (zi) => zi.onSystemPrompt("text" as never))).toBe(false);
    expect(await promptHooks.collect({ cwd: "/p", tools: ["read"] })).toEqual([{ source: "good", text: "tools: read" }]);
    let api!: ZiExtensionApi;
    await host.activate(identity("late"), (zi) => void (api = zi));
    expect(() => api.onSystemPrompt(() => "late")).toThrow(/only possible while the extension loads/);
  });

  it("fails an extension whose registration was invalid or taken, even when it caught the throw", async () => {
    const { host, errors } = hostFixture();
    await host.activate(identity("first"), (zi) => zi.registerCommand("build", { handler() {} }));
    const caught: string[] = [];
    const admitted = await host.activate(identity("second"), (zi) => {
      zi.registerCommand("test", { handler() {} });
      try {
        zi.registerCommand("build", { handler() {} });
      } catch (error) {
        caught.push((error as Error).message);
      }
    });
    expect(admitted).toBe(false);
    expect(caught).toEqual(['duplicate command "build": already registered by first']);
    expect(host.commands.list().map((c) => c.name)).toEqual(["build"]);
    expect(errors().at(-1)).toEqual({ type: "extension_error", extension: "second", error: 'duplicate command "build": already registered by first' });
  });

  it.each([
    ["a command name with a space", (zi: ZiExtensionApi) => zi.registerCommand("two words", { handler() {} }), /^invalid command name "two words"/],
    ["a command name over 64 bytes", (zi: ZiExtensionApi) => zi.registerCommand("x".repeat(65), { handler() {} }), /^invalid command name/],
    ["a command without handler", (zi: ZiExtensionApi) => zi.registerCommand("h", {} as never), /^command "h" needs a handler function$/],
    ["the same command twice", (zi: ZiExtensionApi) => (zi.registerCommand("d", { handler() {} }), zi.registerCommand("d", { handler() {} })), /^duplicate command "d": already registered by ext$/],
    ["a tool name with a dot", (zi: ZiExtensionApi) => zi.registerTool(tool("a.b")), /^invalid tool name "a.b"/],
    ["a tool without parameters", (zi: ZiExtensionApi) => zi.registerTool({ ...tool("p"), parameters: undefined as never }), /^tool "p" needs a JSON Schema object as parameters$/],
    ["a tool without execute", (zi: ZiExtensionApi) => zi.registerTool({ ...tool("p"), execute: undefined as never }), /^tool "p" needs an execute function$/],
  ])("rejects %s", async (_label, activate, message) => {
    const { host, errors } = hostFixture();
    expect(await host.activate(identity("ext"), activate)).toBe(false);
    expect(errors()[0]?.error).toMatch(message);
  });

  it("gives up on an extension whose default export does not settle in time", async () => {
    const { host, errors } = hostFixture(30);
    const admitted = await host.activate(identity("stuck"), async (zi) => {
      zi.registerCommand("never", { handler() {} });
      await new Promise(() => {});
    });
    expect(admitted).toBe(false);
    expect(errors()).toEqual([{ type: "extension_error", extension: "stuck", error: "did not finish loading within 30 ms" }]);
    expect(host.commands.list()).toEqual([]);
  });

  it("refuses registrations after loading, and every call of an extension that failed", async () => {
    const { host } = hostFixture();
    let good!: ZiExtensionApi;
    let bad!: ZiExtensionApi;
    await host.activate(identity("good"), (zi) => void (good = zi));
    await host.activate(identity("bad"), (zi) => {
      bad = zi;
      throw new Error("nope");
    });
    expect(() => good.registerCommand("late", { handler() {} })).toThrow("registerCommand is only possible while the extension loads");
    expect(() => good.registerTool(tool("late"))).toThrow("registerTool is only possible while the extension loads");
    expect(() => bad.appendEntry("t")).toThrow("extension bad was not loaded");
    expect(host.commands.list()).toEqual([]);
  });

  it("delivers events by type or all with '*', isolates listener failures, and unsubscribes", async () => {
    const { host, session, lines } = hostFixture();
    const typed: string[] = [];
    const all: string[] = [];
    let off!: () => void;
    await host.activate(identity("listener"), (zi) => {
      zi.on("agent_end", (event) => void typed.push(event.type));
      off = zi.on("*", (event) => {
        all.push(event.type);
        if ((event.type as string) === "boom") throw new Error("listener bug");
      });
    });
    session.emit({ type: "agent_start" });
    session.emit(looseEvent({ type: "agent_end" }));
    session.emit(looseEvent({ type: "boom" }));
    off();
    session.emit(looseEvent({ type: "agent_end" }));
    expect(typed).toEqual(["agent_end", "agent_end"]);
    expect(all).toEqual(["agent_start", "agent_end", "boom"]);
    expect(lines).toEqual(["zi: extension listener: * listener failed: listener bug"]);
  });

  it("drops the listeners of an extension that failed to load", async () => {
    const { host, session } = hostFixture();
    const before = session.listenerCount;
    const seen: string[] = [];
    await host.activate(identity("failing"), (zi) => {
      zi.on("*", (event) => void seen.push(event.type));
      throw new Error("broken");
    });
    session.emit({ type: "agent_start" });
    expect(seen).toEqual([]);
    expect(session.listenerCount).toBe(before);
  });

  it("sees extension_error events of later extensions through on('*')", async () => {
    const { host } = hostFixture();
    const seen: unknown[] = [];
    await host.activate(identity("watcher"), (zi) => void zi.on("extension_error", (event) => void seen.push(event)));
    await host.activate(identity("broken"), () => {
      throw new Error("bad");
    });
    expect(seen).toEqual([{ type: "extension_error", extension: "broken", error: "threw while loading: bad" }]);
  });

  it("prefixes log lines with the extension's name", async () => {
    const { host, lines } = hostFixture();
    await host.activate(identity("/x/logger.ts"), (zi) => zi.log("count", 3, { ok: true }));
    expect(lines).toEqual(["[/x/logger.ts] count 3 { ok: true }"]);
  });
});
