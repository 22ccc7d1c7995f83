import "reflect-metadata";
import { afterEach, describe, expect, it } from "@jest/globals";
import { inject } from "tsyringe";
import { withPluginFamilies } from "../../../core/extensions/plugin-composition.js";
import type { ZiPlugin } from "../../../core/extensions/zi-plugin.js";
import type { MethodFamily } from "../../../core/kernel/method-family.js";
import type { RpcHandler } from "../../../core/kernel/rpc-handler.js";
import { RpcMethod } from "../../../core/kernel/rpc-method.decorator.js";
import { anyValue } from "../../../core/wire/json-schema.js";
import { commandFamily } from "../../../methods/command/command.family.js";
import { connectionFamily } from "../../../methods/connection/connection.family.js";
import { createWorkPlanPlugin } from "../../../plugins/work-plan/work-plan.plugin.js";
import { serveFamilies, type TestApplication } from "../../../core/testing/testing-api.js";
import { hostFixture } from "../../support/extension-fixtures.js";

const FIXED = Symbol.for("test.fixed-commands");

/** Another implementation of `command.list`: a fixed table, bound by its family's own register. */
@RpcMethod({ summary: "test method", result: anyValue() })
class FixedListCommandsMethod implements RpcHandler {
  constructor(@inject(FIXED) private readonly names: string[]) {}
  handle() {
    return { commands: this.names.map((name) => ({ name, source: "builtin" })) };
  }
}

const harnesses: TestApplication[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

function serve(plugins: ZiPlugin[], builtin: readonly MethodFamily[] = [connectionFamily]): TestApplication {
  const harness = serveFamilies(withPluginFamilies(builtin, plugins));
  harnesses.push(harness);
  return harness;
}

describe("plugins contribute method families without a kernel change", () => {
  it("swaps the built-in command family for another implementation with replaces: true", async () => {
    const swap: ZiPlugin = {
      name: "fixed-commands",
      families: [{ family: "command", replaces: true, methods: { "command.list": FixedListCommandsMethod }, register: (c) => c.registerInstance(FIXED, ["status", "deploy"]) }],
    };
    const harness = serve([swap], [connectionFamily, commandFamily]);
    harness.send(harness.record("l", "command.list"), harness.record("i", "command.invoke", { name: "status" }));
    const [list, invoke] = await harness.frames(2);
    expect(list).toMatchObject({ id: "l", ok: true, result: { commands: [{ name: "status", source: "builtin" }, { name: "deploy", source: "builtin" }] } });
    // The replacement takes the family's place whole: the built-in command.invoke is gone with it.
    expect(invoke).toMatchObject({ type: "protocol_error", id: "i", error: { code: "unknown_method" } });
  });

  it("adds the work-plan plugin's plan.* family, reaching the session through the plugin's extension", async () => {
    const plugin = createWorkPlanPlugin();
    const { host, session } = hostFixture();
    await host.activatePlugins([plugin]);
    const harness = serve([plugin]);
    harness.send(
      harness.record("g0", "plan.get"),
      harness.record("r", "plan.replace", { steps: [{ title: "read", status: "completed" }, { id: "s2", title: "write", status: "in_progress" }] }),
      harness.record("g1", "plan.get"),
      harness.record("bad", "plan.replace", { steps: [{ title: "x", status: "done" }] }),
      harness.record("extra", "plan.replace", { steps: [{ title: "x", status: "pending", owner: "me" }] }),
    );
    const [g0, r, g1, bad, extra] = await harness.frames(5);
    expect(g0.result).toEqual({ workPlan: { revision: 0, steps: [] } });
    const plan = { revision: 1, steps: [{ title: "read", status: "completed" }, { id: "s2", title: "write", status: "in_progress" }] };
    expect(r.result).toEqual({ workPlan: plan });
    expect(g1.result).toEqual({ workPlan: plan });
    expect(session.entries.filter((e) => e.type === "work_plan")).toHaveLength(1);
    expect(bad).toMatchObject({ type: "protocol_error", error: { code: "invalid_request", details: [{ field: "params.steps.0.status", problem: expect.stringContaining("needs a status") }] } });
    expect(extra).toMatchObject({ type: "protocol_error", error: { details: [{ field: "params.steps.0.owner", problem: "unknown field" }] } });
  });

  it("answers operation_failed from plan.* while the plugin's extension half is not loaded", async () => {
    const harness = serve([createWorkPlanPlugin()]);
    harness.send(harness.record("g", "plan.get"));
    const [get] = await harness.frames(1);
    expect(get).toMatchObject({ ok: false, error: { code: "operation_failed", message: "the work-plan plugin was not loaded" } });
  });
});
