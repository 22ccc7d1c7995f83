import { ArrayMaxSize, IsArray, ValidateBy } from "class-validator";
import type { WorkPlanStep } from "../../core/session/session-types.js";

export const MAX_PLAN_STEPS = 100;
export const MAX_STEP_TEXT_BYTES = 1024;
const STATUSES: ReadonlySet<unknown> = new Set(["pending", "in_progress", "completed", "cancelled"]);
const STEP_KEYS: ReadonlySet<string> = new Set(["id", "title", "status"]);

const isText = (value: unknown, allowEmpty: boolean): boolean =>
  typeof value === "string" && (allowEmpty || value !== "") && Buffer.byteLength(value) <= MAX_STEP_TEXT_BYTES;

/** Each step is `{ title, status, id? }` and nothing else; the problem names the first bad step. */
const IsPlanSteps = () =>
  ValidateBy({
    name: "isPlanSteps",
    // How `zi schema` describes this rule (core/schema reads `constraints[0].jsonSchema`).
    constraints: [
      {
        jsonSchema: {
          items: {
            type: "object",
            additionalProperties: false,
            required: ["title", "status"],
            properties: {
              id: { type: "string", minLength: 1, maxLength: MAX_STEP_TEXT_BYTES, "x-maxBytes": MAX_STEP_TEXT_BYTES },
              title: { type: "string", minLength: 1, maxLength: MAX_STEP_TEXT_BYTES, "x-maxBytes": MAX_STEP_TEXT_BYTES },
              status: { enum: [...STATUSES] },
            },
          },
        },
      },
    ],
    validator: {
      validate: (steps: unknown) => Array.isArray(steps) && steps.every((step) => firstProblem(step) === undefined),
      defaultMessage: (args) => {
        const steps = args?.value as unknown[];
        const index = Array.isArray(steps) ? steps.findIndex((step) => firstProblem(step) !== undefined) : -1;
        return index < 0 ? "steps must be an array" : `steps[${index}] ${firstProblem(steps[index])}`;
      },
    },
  });

function firstProblem(step: unknown): string | undefined {
  if (typeof step !== "object" || step === null || Array.isArray(step)) return "must be an object";
  const fields = step as Record<string, unknown>;
  if (Object.keys(fields).some((key) => !STEP_KEYS.has(key))) return "has an unknown field (allowed: id, title, status)";
  if (!isText(fields.title, false)) return `needs a title of 1 to ${MAX_STEP_TEXT_BYTES} UTF-8 bytes`;
  if (!STATUSES.has(fields.status)) return "needs a status: pending, in_progress, completed or cancelled";
  if (fields.id !== undefined && !isText(fields.id, false)) return `id must be a string of 1 to ${MAX_STEP_TEXT_BYTES} UTF-8 bytes`;
  return undefined;
}

export class ReplacePlanParams {
  @IsArray()
  @ArrayMaxSize(MAX_PLAN_STEPS)
  @IsPlanSteps()
  steps!: WorkPlanStep[];
}
