import type { AgentTool, AgentToolContext, AgentToolResult } from "../../core/session/agent-tool.js";
import type { WorkPlanStep } from "../../core/session/session-types.js";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";

/** Replaces the session's work plan; resolves to the stored plan (the session's `replaceWorkPlan`). */
export type PlanUpdater = (steps: WorkPlanStep[]) => Promise<object>;

const STATUSES: ReadonlySet<string> = new Set(["pending", "in_progress", "completed", "cancelled"]);
const MARKS = new Map<string, string>([
  ["pending", "[ ]"],
  ["in_progress", "[>]"],
  ["completed", "[x]"],
  ["cancelled", "[-]"],
]);
const { maxPlanSteps, maxPlanTitleChars } = CODING_TOOL_LIMITS;

/** `update_plan`: the model's visible work plan. Each call replaces the whole plan. */
export class UpdatePlanTool implements AgentTool {
  readonly name = "update_plan";
  readonly description =
    "Replace the work plan shown to the user with this complete list of steps (send every step each time, not a diff). " +
    "Status is pending, in_progress, completed or cancelled; keep at most one step in_progress. Use it for multi-step work.";
  readonly parameters = {
    type: "object",
    properties: {
      steps: {
        type: "array",
        maxItems: maxPlanSteps,
        items: {
          type: "object",
          properties: {
            title: { type: "string", minLength: 1, maxLength: maxPlanTitleChars },
            status: { type: "string", enum: [...STATUSES] },
            id: { type: "string", description: "Optional stable identifier for the step." },
          },
          required: ["title", "status"],
          additionalProperties: false,
        },
      },
    },
    required: ["steps"],
    additionalProperties: false,
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

  /** Copies only the known fields, so nothing unexpected reaches the journal. */
  private static readSteps(value: unknown): WorkPlanStep[] {
    if (!Array.isArray(value)) throw new Error('update_plan: "steps" must be an array.');
    if (value.length > maxPlanSteps) throw new Error(`update_plan: at most ${maxPlanSteps} steps.`);
    return value.map((raw: unknown, index) => {
      const step = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
      const { title, status, id } = step;
      if (typeof title !== "string" || title.trim() === "" || title.length > maxPlanTitleChars) {
        throw new Error(`update_plan: steps[${index}].title must be a non-empty string of at most ${maxPlanTitleChars} characters.`);
      }
      if (typeof status !== "string" || !STATUSES.has(status)) {
        throw new Error(`update_plan: steps[${index}].status must be one of ${[...STATUSES].join(", ")}.`);
      }
      if (id !== undefined && typeof id !== "string") throw new Error(`update_plan: steps[${index}].id must be a string.`);
      const clean: WorkPlanStep = { title, status: status as WorkPlanStep["status"] };
      if (id !== undefined) clean.id = id;
      return clean;
    });
  }
}
