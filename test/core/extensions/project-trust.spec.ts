import { describe, expect, it } from "@jest/globals";
import { join } from "node:path";
import { ExtensionDiscovery } from "../../../core/extensions/extension-discovery.js";
import { ExtensionRuntime } from "../../../core/extensions/extension-runtime.js";
import type { PluginServices } from "../../../core/extensions/plugin-services.js";
import { profileDirs } from "../../../plugins/delegation/profile-dirs.js";
import { writeTree } from "../../support/extension-fixtures.js";

const extension = "export default () => {};\n";

/** The services a plugin receives from an ExtensionRuntime rooted at `root`. */
async function pluginServices(root: string, projectTrusted: boolean, announced: object[] = []): Promise<PluginServices | undefined> {
  let received: PluginServices | undefined;
  const session = { announce: async (event: object) => void announced.push(event), registerTool: () => undefined, subscribe: () => () => undefined };
  const runtime = new ExtensionRuntime({
    session: session as never,
    childSessions: { create: async () => Promise.reject(new Error("unused")) },
    cwd: join(root, "project"),
    ziHome: join(root, "home"),
    globalDir: join(root, "home/extensions"),
    projectDir: join(root, "project/.zi/extensions"),
    projectZiDir: join(root, "project/.zi"),
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

  it("loads both in a trusted project", async () => {
    const discovery = new ExtensionDiscovery({ globalDir: join(root, "home/extensions"), projectDir: join(root, "project/.zi/extensions"), cliPaths: [], cwd: root, projectTrusted: true });
    expect(discovery.loadsProjectContent()).toBe(true);
    expect((await discovery.find()).map((candidate) => candidate.origin)).toEqual(["global", "project"]);
    const services = (await pluginServices(root, true))!;
    expect(services.project).toEqual({ dir: join(root, "project/.zi"), trusted: true, untrustedReason: "the project is not trusted" });
    expect(await profileDirs(join(root, "home"), services)).toEqual([
      { dir: join(root, "home/agents"), origin: "global" },
      { dir: join(root, "project/.zi/agents"), origin: "project" },
    ]);
  });

  it("leaves out the project's extensions and profile directory together when the project is not trusted", async () => {
    const options = { globalDir: join(root, "home/extensions"), projectDir: join(root, "project/.zi/extensions"), cliPaths: [], cwd: root, projectTrusted: false };
    const discovery = new ExtensionDiscovery(options);
    expect(discovery.loadsProjectContent()).toBe(false);
    // The skipped project extensions are one candidate that carries the problem (reported by the host).
    expect((await discovery.find()).map((candidate) => [candidate.origin, candidate.problem !== undefined])).toEqual([
      ["global", false],
      ["project", true],
    ]);
    const services = (await pluginServices(root, false))!;
    expect(services.project.trusted).toBe(false);
    expect(await profileDirs(join(root, "home"), services)).toEqual([{ dir: join(root, "home/agents"), origin: "global" }]);
  });

  it("names the skipped profiles of an untrusted project in one extension_error", async () => {
    const withProfiles = writeTree({ "project/.zi/agents/reviewer.md": "---\nname: reviewer\ndescription: d\n---\nbody\n", "project/.zi/agents/notes.txt": "" });
    const announced: object[] = [];
    await profileDirs(join(withProfiles, "home"), (await pluginServices(withProfiles, false, announced))!);
    expect(announced).toEqual([
      {
        type: "extension_error",
        extension: join(withProfiles, "project/.zi/agents"),
        error: "skipped 1 project delegation profile(s) (reviewer.md): the project is not trusted",
      },
    ]);
    const none: object[] = [];
    await profileDirs(join(withProfiles, "home"), (await pluginServices(withProfiles, true, none))!);
    expect(none).toEqual([]);
  });
});
