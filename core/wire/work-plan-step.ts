import type { JsonSchema } from "./json-schema.js";
import type { WorkPlanStep } from "./session-types.js";

export const WORK_PLAN_STEP_STATUSES = ["pending", "in_progress", "completed", "cancelled"] as const;

/** The one set of work-plan bounds: every writer (model tool, extension API, `plan.replace`) is held to them. */
export const WORK_PLAN_LIMITS = Object.freeze({ maxSteps: 100, maxStepTextBytes: 1024 });

const STATUSES: ReadonlySet<unknown> = new Set(WORK_PLAN_STEP_STATUSES);
const STEP_KEYS: ReadonlySet<string> = new Set(["id", "title", "status"]);
const { maxSteps, maxStepTextBytes } = WORK_PLAN_LIMITS;

const isText = (value: unknown): value is string => typeof value === "string" && value !== "" && Buffer.byteLength(value) <= maxStepTextBytes;

/** One step as JSON Schema: what `zi schema`, the `update_plan` tool and docs/work-plans.md describe. */
export const WORK_PLAN_STEP_SCHEMA: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["title", "status"],
  properties: {
    id: { type: "string", minLength: 1, maxLength: maxStepTextBytes, "x-maxBytes": maxStepTextBytes },
    title: { type: "string", minLength: 1, maxLength: maxStepTextBytes, "x-maxBytes": maxStepTextBytes },
    status: { enum: [...WORK_PLAN_STEP_STATUSES] },
  },
};

/** A broken step: the field at fault (absent: the step itself) and what is wrong with it. */
export interface WorkPlanStepFault {
  key?: string;
  problem: string;
}

const UNKNOWN_FIELD = "unknown field";

/** The single step rule shared by every writer: the first fault of one step, or undefined. */
export function workPlanStepFault(step: unknown): WorkPlanStepFault | undefined {
  if (typeof step !== "object" || step === null || Array.isArray(step)) return { problem: "must be an object" };
  const fields = step as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !STEP_KEYS.has(key));
  if (unknown !== undefined) return { key: unknown, problem: UNKNOWN_FIELD };
  if (!isText(fields.title)) return { key: "title", problem: `needs a title of 1 to ${maxStepTextBytes} UTF-8 bytes` };
  if (!STATUSES.has(fields.status)) return { key: "status", problem: `needs a status: ${WORK_PLAN_STEP_STATUSES.join(", ")}` };
  if (fields.id !== undefined && !isText(fields.id)) return { key: "id", problem: `id must be a string of 1 to ${maxStepTextBytes} UTF-8 bytes` };
  return undefined;
}

/** What is wrong with one step, as a sentence for a model or an extension author, or undefined. */
export function workPlanStepProblem(step: unknown): string | undefined {
  const fault = workPlanStepFault(step);
  if (!fault) return undefined;
  return fault.problem === UNKNOWN_FIELD ? "has an unknown field (allowed: id, title, status)" : fault.problem;
}

/** The first fault of a list of steps, located below it (`[index, key]`), as the wire reports it. */
export function workPlanStepsFault(steps: unknown): { path: (string | number)[]; problem: string } | undefined {
  if (!Array.isArray(steps)) return { path: [], problem: "steps must be an array" };
  if (steps.length > maxSteps) return { path: [], problem: `steps has more than ${maxSteps} items` };
  for (const [index, step] of steps.entries()) {
    const fault = workPlanStepFault(step);
    if (fault) return { path: fault.key === undefined ? [index] : [index, fault.key], problem: fault.problem };
  }
  return undefined;
}

/** What is wrong with a whole list of steps (`steps[i] …`), or undefined. */
export function workPlanStepsProblem(steps: unknown): string | undefined {
  if (!Array.isArray(steps)) return "steps must be an array";
  if (steps.length > maxSteps) return `steps has more than ${maxSteps} items`;
  for (const [index, step] of steps.entries()) {
    const problem = workPlanStepProblem(step);
    if (problem !== undefined) return `steps[${index}] ${problem}`;
  }
  return undefined;
}

/** A fresh copy of valid steps with only their known fields, in a fixed key order. */
export function copyWorkPlanSteps(steps: readonly WorkPlanStep[]): WorkPlanStep[] {
  return steps.map(({ id, title, status }) => (id === undefined ? { title, status } : { id, title, status }));
}
