import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionJournal } from "../../../core/journal/session-journal.js";
import type { ZiExtensionApi } from "../../../core/extensions/extension-api.js";
import { ExtensionHost } from "../../../core/extensions/extension-host.js";
import { ExtensionModuleLoader } from "../../../core/extensions/extension-module-loader.js";
import { SessionHarness } from "../../support/session-harness.js";

const harnesses: SessionHarness[] = [];
afterEach(() => {
  for (const harness of harnesses.splice(0)) harness.dispose();
});

/** The extension API over a real AgentSession on `journal`: the rules docs/work-plans.md states. */
async function apiOver(journal: SessionJournal): Promise<{ api: ZiExtensionApi; harness: SessionHarness }> {
  const harness = await SessionHarness.create({ model: null, journal });
  harnesses.push(harness);
  const host = new ExtensionHost({ session: harness.session, loader: new ExtensionModuleLoader(false), cwd: "/tmp", ziHome: "/tmp", log: () => {} });
  let api!: ZiExtensionApi;
  await host.activate({ name: "planner", origin: "builtin" }, (zi) => void (api = zi));
  return { api, harness };
}

describe("work plan rules (docs/work-plans.md)", () => {
  it("replaces whole, +1 per replacement even when identical or empty, rejects invalid plans atomically", async () => {
    const { api, harness } = await apiOver(SessionJournal.inMemory("plans", "/tmp"));
    const step = { title: "write", status: "in_progress" as const };
    expect(api.replaceWorkPlan([step]).revision).toBe(1);
    expect(api.replaceWorkPlan([step]).revision).toBe(2);
    expect(api.replaceWorkPlan([{ status: "in_progress", id: "w", title: "write" }])).toEqual({ revision: 3, steps: [{ id: "w", title: "write", status: "in_progress" }] });
    // The one step rule of every writer (core/wire/work-plan-step.ts): unknown fields, empty or
    // over-long text, unknown statuses and more than 100 steps are refused, and nothing moves.
    expect(() => api.replaceWorkPlan([step, { title: "", status: "pending" }])).toThrow("steps[1] needs a title of 1 to 1024 UTF-8 bytes");
    expect(() => api.replaceWorkPlan([{ ...step, owner: "me" } as never])).toThrow("steps[0] has an unknown field");
    expect(() => api.replaceWorkPlan([{ ...step, title: "é".repeat(513) }])).toThrow("steps[0] needs a title of 1 to 1024 UTF-8 bytes");
    expect(() => api.replaceWorkPlan([{ ...step, status: "done" as never }])).toThrow("steps[0] needs a status");
    expect(() => api.replaceWorkPlan(Array.from({ length: 101 }, () => step))).toThrow("steps has more than 100 items");
    expect(api.replaceWorkPlan(Array.from({ length: 100 }, () => ({ ...step, title: "é".repeat(512) }))).revision).toBe(4);
    expect(api.getState().workPlan.revision).toBe(4);
    expect(api.replaceWorkPlan([])).toEqual({ revision: 5, steps: [] });
    expect(harness.ofType("work_plan_changed").map((e) => (e.workPlan as { revision: number }).revision)).toEqual([1, 2, 3, 4, 5]);
  });

  it("restores the latest plan when the journal is reopened, and continues its revision", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zi-plan-journal-"));
    const journal = SessionJournal.create(dir, "plan-resume", "/tmp", { fsync: false });
    const first = await apiOver(journal);
    first.api.replaceWorkPlan([{ title: "a", status: "completed" }]);
    const latest = first.api.replaceWorkPlan([{ title: "a", status: "completed" }, { title: "b", status: "pending" }]);
    journal.close();

    const reopened = await apiOver(SessionJournal.open(journal.file!, { fsync: false }));
    expect(reopened.api.getState().workPlan).toEqual(latest);
    expect(reopened.harness.ofType("work_plan_changed")).toEqual([]);
    expect(reopened.api.replaceWorkPlan([{ title: "b", status: "completed" }]).revision).toBe(3);
  });
});
