import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { setTimeout as sleep } from "node:timers/promises";
import { AgentSessionModule } from "../../../core/boot/agent-session-module.js";
import { parseCliOptions, type ZiOptions } from "../../../core/cli/cli-options.js";
import type { ZiPlugin } from "../../../core/extensions/zi-plugin.js";
import { ProviderWarmer } from "../../../core/models/provider-warmer.js";
import type { AgentTool } from "../../../core/session/agent-tool.js";
import { OpenAICompatibleServer } from "../../support/openai-compatible-server.js";
import { TempZiHome } from "../../support/temp-zi-home.js";

/**
 * The first prompt's rehearsal (SessionRehearsal) as the module installs it: a model is selected
 * before `afterReady` has loaded the plugins, and the rehearsal must offer the tools they bring, or
 * be dropped with the session. The process's warmer warms each API once, so each test has its own.
 */
describe("AgentSessionModule: the first prompt's rehearsal", () => {
  let home: TempZiHome;
  let server: OpenAICompatibleServer;
  let module: AgentSessionModule | undefined;
  /** Reads of the plugin tool's schema: the rehearsal reads it to offer the tool. */
  let schemaReads: number;

  const options = parseCliOptions(["--mode", "rpc", "--no-session"], {}) as ZiOptions;
  const probe = (): AgentTool => ({
    name: "probe",
    description: "a plugin's tool",
    get parameters() {
      schemaReads++;
      return { type: "object", properties: {} };
    },
    execute: () => Promise.resolve({ content: [{ type: "text", text: "ran" }] }),
  });
  const plugin: ZiPlugin = { name: "probe-plugin", extension: (zi) => zi.registerTool(probe()) };

  async function started(api: string): Promise<AgentSessionModule> {
    home.write(home.paths.modelsFile, { providers: { local: { baseUrl: await server.start(), api, apiKey: "k-secret", models: [{ id: "m1" }] } } });
    module = await AgentSessionModule.create(options, home.env, home.project, () => Promise.resolve([plugin]));
    await module.models.select("local", "m1");
    return module;
  }

  beforeEach(() => {
    home = new TempZiHome();
    server = new OpenAICompatibleServer();
    schemaReads = 0;
    module = undefined;
  });

  afterEach(async () => {
    await module?.dispose();
    await ProviderWarmer.settled();
    await server.stop();
    home.cleanup();
  });

  it("waits for afterReady, then offers the plugins' tools", async () => {
    const session = await started("openai-completions");
    const warming = ProviderWarmer.process.warming("openai-completions");
    let warmed = false;
    void warming?.then(() => (warmed = true));
    await sleep(300); // long enough for the warm-up to reach its rehearsal, which waits
    expect(warmed).toBe(false);
    await session.afterReady();
    const read = schemaReads;
    expect(await warming).toBe(true);
    expect(schemaReads).toBeGreaterThan(read);
    expect(server.requests).toEqual([]);
  });

  it("drops the rehearsal of a session disposed before afterReady", async () => {
    const session = await started("openai-responses");
    await session.dispose();
    module = undefined;
    expect(await ProviderWarmer.process.warming("openai-responses")).toBe(false);
    expect(schemaReads).toBe(0);
  });
});
