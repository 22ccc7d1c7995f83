import { afterEach, describe, expect, it } from "@jest/globals";
import { SessionHarness } from "../../support/session-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

describe("AgentSession.announce", () => {
  it("sends a host event through the session's ordered path, behind events already queued, changing no state", async () => {
    harness = await SessionHarness.create({ model: null });
    const { session } = harness;
    const before = session.getState();
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    session.subscribe(() => {
      if (!first) return;
      first = false;
      return blocked;
    });
    void session.replaceWorkPlan([{ title: "one", status: "pending" }]);
    const announced = session.announce({ type: "extension_error", extension: "x.ts", error: "boom" });
    release();
    await announced;
    const types = harness.events.map((event) => event.type);
    expect(types.indexOf("extension_error")).toBeGreaterThan(types.indexOf("work_plan_changed"));
    expect(session.getState()).toEqual({ ...before, workPlan: { revision: 1, steps: [{ title: "one", status: "pending" }] } });
  });
});
