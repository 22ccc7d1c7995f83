import { afterEach, describe, expect, it } from "@jest/globals";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

// Issue 16, item 13: one rule for nested params in error details, `params.<name>.<index>.<key>`.
const detailsOf = async (zi: ZiProcess, id: string) => (await zi.waitFor((frame) => frame.id === id)).error.details;

describe("error details for nested params", () => {
  it("plan.replace names the step and the field at fault", async () => {
    const zi = new ZiProcess();
    zi.request("unknown", "plan.replace", { steps: [{ title: "a", status: "pending" }, { title: "b", status: "pending", owner: "me" }] });
    zi.request("status", "plan.replace", { steps: [{ title: "a", status: "done" }] });
    zi.request("step", "plan.replace", { steps: ["not a step"] });
    zi.request("many", "plan.replace", { steps: Array.from({ length: 101 }, () => ({ title: "t", status: "pending" })) });
    expect(await detailsOf(zi, "unknown")).toEqual([{ field: "params.steps.1.owner", problem: "unknown field" }]);
    expect(await detailsOf(zi, "status")).toEqual([{ field: "params.steps.0.status", problem: "needs a status: pending, in_progress, completed, cancelled" }]);
    expect(await detailsOf(zi, "step")).toEqual([{ field: "params.steps.0", problem: "must be an object" }]);
    expect(await detailsOf(zi, "many")).toEqual([{ field: "params.steps", problem: "steps has more than 100 items" }]);
    await zi.close();
  }, 30_000);

  it("a value nested too deep is reported on the parameter that holds it", async () => {
    const zi = new ZiProcess();
    let deep: unknown = "x";
    for (let i = 0; i < 80; i++) deep = [deep];
    zi.request("deep", "plan.replace", { steps: deep as never });
    expect(await zi.waitFor((frame) => frame.id === "deep")).toMatchObject({
      type: "protocol_error",
      error: { code: "invalid_request", details: [{ field: "params.steps", problem: "nests deeper than 64 levels" }] },
    });
    await zi.close();
  }, 30_000);
});
