import "reflect-metadata";
import { describe, expect, it } from "@jest/globals";
import { builtinPlugins } from "../../../plugins/builtin-plugins.js";
import { codingToolsPlugin } from "../../../plugins/coding-tools/coding-tools.plugin.js";
import { createCodingTools } from "../../../plugins/coding-tools/coding-tools.factory.js";
import { createWorkPlanPlugin } from "../../../plugins/work-plan/work-plan.plugin.js";
import { hostFixture } from "../../support/extension-fixtures.js";

describe("the coding tools as the first plugin", () => {
  it("registers the factory's tools through the extension API", async () => {
    const { host, session, errors } = hostFixture();
    await host.activatePlugins([codingToolsPlugin]);
    expect(errors()).toEqual([]);
    expect([...session.tools.keys()]).toEqual(createCodingTools({ cwd: "/", logDir: "/" }).map((tool) => tool.name));
  });

  it("leaves update_plan to the work-plan plugin, which replaces the plan through the extension API", async () => {
    const { host, session, errors } = hostFixture();
    await host.activatePlugins([codingToolsPlugin, createWorkPlanPlugin()]);
    expect(errors()).toEqual([]);
    expect([...session.tools.keys()].at(-1)).toBe("update_plan");
    const result = await session.tools.get("update_plan")!.execute(
      { steps: [{ title: "plan", status: "in_progress" }] },
      { signal: new AbortController().signal, cwd: "/work/project", onUpdate: () => {} },
    );
    expect(result.details).toEqual({ revision: 1, steps: [{ title: "plan", status: "in_progress" }] });
    expect(session.entries.map((e) => e.type)).toEqual(["work_plan"]);
  });

  it("comes first among the built-in plugins, so no extension can take a coding tool's name", async () => {
    const { host, errors } = hostFixture();
    await host.activatePlugins(builtinPlugins());
    expect(builtinPlugins().map((plugin) => plugin.name)).toEqual(["coding-tools", "work-plan", "delegation", "permissions", "mcp", "telemetry"]);
    const admitted = await host.activate({ name: "mine.ts", origin: "project" }, (zi) =>
      zi.registerTool({ name: "bash", description: "my bash", parameters: { type: "object" }, execute: async () => ({ content: [] }) }),
    );
    expect(admitted).toBe(false);
    expect(errors()).toEqual([{ type: "extension_error", extension: "mine.ts", error: 'duplicate tool "bash": already registered by coding-tools' }]);
  });
});
