import { describe, expect, it } from "@jest/globals";
import type { AgentTool } from "../../../core/extensions/extension-api.js";
import { ExtensionHost } from "../../../core/extensions/extension-host.js";
import { ExtensionModuleLoader } from "../../../core/extensions/extension-module-loader.js";
import type { PluginServices, PluginToolSet } from "../../../core/extensions/plugin-services.js";
import { FakeExtensionSession } from "../../support/fake-extension-session.js";

const tool = (name: string): AgentTool => ({ name, description: "d", parameters: { type: "object" }, execute: async () => ({ content: [] }) });

function host() {
  const session = new FakeExtensionSession();
  const services = {
    session: {
      appendSubagentEntry: () => ({}) as never,
      appendPermissionEntry: () => ({}) as never,
      toolList: () => [],
      getState: () => session.getState(),
      announce: async () => undefined,
      toolGate: {} as never,
      approvals: {} as never,
      sandbox: {} as never,
    },
    settings: { getGlobal: () => ({}) as never, getProject: () => ({}) as never },
    tools: { replace: () => [], beforeModelCall: () => () => undefined },
    secrets: { add: () => undefined, redact: (text: string) => text },
    onDispose: () => undefined,
    childSessions: { create: () => undefined as never },
    project: { dir: "/p/.zi", trusted: false, untrustedReason: "untrusted" },
    report: async () => undefined,
  } satisfies PluginServices;
  const extensionHost = new ExtensionHost({ session, loader: new ExtensionModuleLoader(false), cwd: "/p", ziHome: "/h", log: () => undefined, pluginServices: services });
  return { session, extensionHost };
}

describe("a plugin's run-time tools (PluginServices.tools)", () => {
  it("replaces the plugin's own tools whole, refuses names another owner has, and adds model-call hooks", async () => {
    const { session, extensionHost } = host();
    let tools!: PluginToolSet;
    await extensionHost.activatePlugins([
      { name: "first", extension: (zi) => zi.registerTool(tool("taken")) },
      { name: "late", extension: (_zi, services) => void (tools = services!.tools) },
    ]);
    expect(tools.replace([tool("a"), tool("taken"), tool("b")])).toEqual(["taken"]);
    expect([...session.tools.keys()]).toEqual(["taken", "a", "b"]);
    expect(tools.replace([tool("b"), tool("c")])).toEqual([]);
    expect([...session.tools.keys()]).toEqual(["taken", "b", "c"]);
    // An extension file loading later cannot take a name a plugin offers now.
    expect(await extensionHost.activate({ name: "file", origin: "cli" }, (zi) => zi.registerTool(tool("c")))).toBe(false);
    expect(tools.replace([])).toEqual([]);
    expect([...session.tools.keys()]).toEqual(["taken"]);
    const remove = tools.beforeModelCall(async () => undefined);
    expect(session.modelCallHooks.size).toBe(1);
    remove();
    expect(session.modelCallHooks.size).toBe(0);
  });
});
