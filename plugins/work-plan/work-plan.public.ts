// The public face of the work-plan plugin: what another plugin may use of it (test/architecture/layers.spec.ts).
export { UpdatePlanTool, type PlanUpdater } from "./update-plan.tool.js";
