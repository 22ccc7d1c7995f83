import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import type { ToolDeclaration } from "../../core/session/tool-declaration.js";
import type { WorkPlanStep } from "../../core/wire/session-types.js";
import { WORK_PLAN_LIMITS, WORK_PLAN_STEP_SCHEMA, copyWorkPlanSteps, workPlanStepsProblem } from "../../core/wire/work-plan-step.js";

/** Replaces the session's work plan; resolves to the stored plan (the session's `replaceWorkPlan`). */
export type PlanUpdater = (steps: WorkPlanStep[]) => Promise<object>;

const MARKS = new Map<string, string>([
  ["pending", "[ ]"],
  ["in_progress", "[>]"],
  ["completed", "[x]"],
  ["cancelled", "[-]"],
]);

/** `update_plan`: the model's visible work plan. Each call replaces the whole plan. */
export class UpdatePlanTool implements AgentTool {
  readonly name = "update_plan";
  readonly description =
    "Replace the work plan shown to the user with this complete list of steps (send every step each time, not a diff). " +
    "Status is pending, in_progress, completed or cancelled; keep at most one step in_progress. Use it for multi-step work.";
  readonly parameters = {
    type: "object",
    properties: {
      steps: { type: "array", maxItems: WORK_PLAN_LIMITS.maxSteps, items: WORK_PLAN_STEP_SCHEMA },
    },
    required: ["steps"],
    additionalProperties: false,
  };

  readonly declaration: ToolDeclaration = {
    effect: "other",
    display: "think",
    guideline: "For a task of several steps, keep a work plan with update_plan and keep it current as you go.",
    describe: () => ({ title: "Update the plan", paths: [] }),
  };

  constructor(private readonly onPlanUpdate: PlanUpdater) {}

  async execute(rawArgs: Record<string, unknown>, context: AgentToolContext): Promise<AgentToolResult> {
    const steps = UpdatePlanTool.readSteps(rawArgs?.steps);
    if (context.signal.aborted) throw new Error("update_plan was interrupted before it started.");
    const plan = await this.onPlanUpdate(steps);
    const revision = (plan as { revision?: unknown }).revision;
    const lines = steps.map((step) => `${MARKS.get(step.status)} ${step.title}`);
    const heading = typeof revision === "number" ? `Plan updated (revision ${revision}).` : "Plan updated.";
    return { content: [{ type: "text", text: [heading, ...lines].join("\n") }], details: plan };
  }

  /** The wire's one step rule (core/wire/work-plan-step.ts); only known fields reach the journal. */
  private static readSteps(value: unknown): WorkPlanStep[] {
    const problem = workPlanStepsProblem(value);
    if (problem !== undefined) throw new Error(`update_plan: ${problem}.`);
    return copyWorkPlanSteps(value as WorkPlanStep[]);
  }
}
