import { describe, expect, it } from "@jest/globals";
import { join } from "node:path";
import { ExtensionDiscovery } from "../../core/extensions/extension-discovery.js";
import { ExtensionRuntime } from "../../core/extensions/extension-runtime.js";
import type { PluginServices } from "../../core/extensions/plugin-services.js";
import { writeTree } from "./support/extension-fixtures.js";

const extension = "export default () => {};\n";

/** The services a plugin receives from an ExtensionRuntime rooted at `root`. */
async function pluginServices(root: string, projectTrusted: boolean | undefined): Promise<PluginServices | undefined> {
  let received: PluginServices | undefined;
  const session = { announce: async () => undefined, registerTool: () => undefined, subscribe: () => () => undefined };
  const runtime = new ExtensionRuntime({
    session: session as never,
    childSessions: { create: async () => Promise.reject(new Error("unused")) },
    cwd: join(root, "project"),
    ziHome: join(root, "home"),
    globalDir: join(root, "home/extensions"),
    projectDir: join(root, "project/.zi/extensions"),
    globalAgentsDir: join(root, "home/agents"),
    projectAgentsDir: join(root, "project/.zi/agents"),
    cliPaths: [],
    projectTrusted,
    loadPlugins: async () => [{ name: "probe", extension: (_zi, services) => void (received = services) }],
    log: () => undefined,
  });
  await runtime.load();
  return received;
}

describe("one decision for the project's .zi/ content: extensions and agent profiles", () => {
  const root = writeTree({ "home/extensions/g.js": extension, "project/.zi/extensions/p.js": extension });

  it("loads both by default", async () => {
    const discovery = new ExtensionDiscovery({ globalDir: join(root, "home/extensions"), projectDir: join(root, "project/.zi/extensions"), cliPaths: [], cwd: root });
    expect(discovery.loadsProjectContent()).toBe(true);
    expect((await discovery.find()).map((candidate) => candidate.origin)).toEqual(["global", "project"]);
    expect((await pluginServices(root, undefined))!.agentDirs).toEqual([
      { dir: join(root, "home/agents"), origin: "global" },
      { dir: join(root, "project/.zi/agents"), origin: "project" },
    ]);
  });

  it("leaves out the project's extensions and profile directory together when the project is not trusted", async () => {
    const options = { globalDir: join(root, "home/extensions"), projectDir: join(root, "project/.zi/extensions"), cliPaths: [], cwd: root, projectTrusted: false };
    const discovery = new ExtensionDiscovery(options);
    expect(discovery.loadsProjectContent()).toBe(false);
    expect((await discovery.find()).map((candidate) => candidate.origin)).toEqual(["global"]);
    expect((await pluginServices(root, false))!.agentDirs).toEqual([{ dir: join(root, "home/agents"), origin: "global" }]);
  });
});
