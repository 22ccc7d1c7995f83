import { describe, expect, it } from "@jest/globals";
import type { WorkPlan, WorkPlanStep } from "../../../core/wire/session-types.js";
import { UpdatePlanTool } from "../../../plugins/work-plan/update-plan.tool.js";
import { makeContext, textOf } from "../../support/tool-test-kit.js";

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

  it("refuses unknown step fields, as every work-plan writer does", async () => {
    const store = new PlanStore();
    await expect(new UpdatePlanTool(store.replace).execute({ steps: [{ title: "t", status: "pending", extra: "x" }] }, makeContext("/"))).rejects.toThrow(
      "update_plan: steps[0] has an unknown field (allowed: id, title, status).",
    );
    expect(store.plan.revision).toBe(0);
  });

  it("rejects malformed steps without calling the callback", async () => {
    const store = new PlanStore();
    const tool = new UpdatePlanTool(store.replace);
    await expect(tool.execute({ steps: "x" }, makeContext("/"))).rejects.toThrow("update_plan: steps must be an array.");
    await expect(tool.execute({ steps: [{ title: "t", status: "done" }] }, makeContext("/"))).rejects.toThrow(
      "steps[0] needs a status: pending, in_progress, completed, cancelled",
    );
    await expect(tool.execute({ steps: [{ title: "", status: "pending" }] }, makeContext("/"))).rejects.toThrow("steps[0] needs a title of 1 to 1024 UTF-8 bytes");
    await expect(tool.execute({ steps: [{ title: "t", status: "pending", id: 5 }] }, makeContext("/"))).rejects.toThrow("steps[0] id must be a string");
    expect(store.plan.revision).toBe(0);
  });
});
