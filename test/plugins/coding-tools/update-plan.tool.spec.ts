import { describe, expect, it } from "@jest/globals";
import type { WorkPlan, WorkPlanStep } from "../../../core/session/session-types.js";
import { UpdatePlanTool } from "../../../plugins/coding-tools/update-plan.tool.js";
import { makeContext, textOf } from "./tool-test-kit.js";

/** Stands in for the session's replaceWorkPlan: stores the plan and bumps the revision. */
class PlanStore {
  plan: WorkPlan = { revision: 0, steps: [] };
  replace = async (steps: WorkPlanStep[]): Promise<WorkPlan> => {
    this.plan = { revision: this.plan.revision + 1, steps };
    return this.plan;
  };
}

describe("UpdatePlanTool", () => {
  it("replaces the plan through the callback and reports the new revision", async () => {
    const store = new PlanStore();
    const tool = new UpdatePlanTool(store.replace);
    const steps = [
      { title: "Read the code", status: "completed", id: "read" },
      { title: "Write the fix", status: "in_progress" },
      { title: "Run the tests", status: "pending" },
      { title: "Old idea", status: "cancelled" },
    ];
    await tool.execute({ steps: [{ title: "first", status: "pending" }] }, makeContext("/"));
    const result = await tool.execute({ steps }, makeContext("/"));
    expect(store.plan).toEqual({ revision: 2, steps });
    expect(textOf(result)).toBe("Plan updated (revision 2).\n[x] Read the code\n[>] Write the fix\n[ ] Run the tests\n[-] Old idea");
    expect(result.details).toEqual({ revision: 2, steps });
  });

  it("passes only known step fields", async () => {
    const store = new PlanStore();
    await new UpdatePlanTool(store.replace).execute({ steps: [{ title: "t", status: "pending", extra: "x" }] }, makeContext("/"));
    expect(store.plan.steps).toEqual([{ title: "t", status: "pending" }]);
  });

  it("rejects malformed steps without calling the callback", async () => {
    const store = new PlanStore();
    const tool = new UpdatePlanTool(store.replace);
    await expect(tool.execute({ steps: "x" }, makeContext("/"))).rejects.toThrow('"steps" must be an array');
    await expect(tool.execute({ steps: [{ title: "t", status: "done" }] }, makeContext("/"))).rejects.toThrow(
      "steps[0].status must be one of pending, in_progress, completed, cancelled",
    );
    await expect(tool.execute({ steps: [{ title: " ", status: "pending" }] }, makeContext("/"))).rejects.toThrow(/steps\[0\]\.title/);
    await expect(tool.execute({ steps: [{ title: "t", status: "pending", id: 5 }] }, makeContext("/"))).rejects.toThrow(/steps\[0\]\.id/);
    expect(store.plan.revision).toBe(0);
  });
});
