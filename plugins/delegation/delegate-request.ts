import type { AgentProfile } from "./agent-profile.js";

export interface DelegateTaskInput {
  profile: string;
  task: string;
}

export interface DelegateRequest {
  form: "single" | "parallel" | "chain";
  tasks: { profile: AgentProfile; task: string }[];
}

/** The JSON Schema of the `delegate` arguments: Zi validates the model's call against it first. */
export function delegateParameters(profileNames: readonly string[], maxTasks: number): Record<string, unknown> {
  const profile = { type: "string", enum: [...profileNames], description: "The profile that runs the task." };
  const task = { type: "string", minLength: 1, description: "The complete, self-contained task: the child sees nothing else." };
  const item = { type: "object", properties: { profile, task }, required: ["profile", "task"], additionalProperties: false };
  return {
    type: "object",
    properties: {
      profile,
      task,
      tasks: { type: "array", items: item, minItems: 1, maxItems: maxTasks, description: `Parallel form: up to ${maxTasks} independent tasks.` },
      chain: {
        type: "array",
        items: item,
        minItems: 1,
        maxItems: maxTasks,
        description: "Chain form: steps run in order; {previous} in a task is replaced by the prior step's result.",
      },
    },
    additionalProperties: false,
  };
}

/**
 * Checks the arguments again (direct callers skip schema validation) and resolves the profiles. Throws
 * an Error whose message the model reads as the tool's error result.
 */
export function parseDelegateRequest(args: Record<string, unknown>, profiles: ReadonlyMap<string, AgentProfile>, maxTasks: number): DelegateRequest {
  const forms = (["task", "tasks", "chain"] as const).filter((key) => args[key] !== undefined);
  if (forms.length !== 1) {
    throw new Error('Give exactly one form: { profile, task } (single), { tasks: [{ profile, task }, ...] } (parallel) or { chain: [{ profile, task }, ...] } (chain).');
  }
  const form = forms[0] === "task" ? "single" : forms[0] === "tasks" ? "parallel" : "chain";
  const items: unknown[] = form === "single" ? [{ profile: args.profile, task: args.task }] : (args[forms[0]] as unknown[]);
  if (!Array.isArray(items) || items.length === 0) throw new Error(`"${forms[0]}" must be a non-empty array of { profile, task }.`);
  if (items.length > maxTasks) throw new Error(`"${forms[0]}" has ${items.length} tasks; at most ${maxTasks} are allowed in one call.`);
  const tasks = items.map((item, index) => {
    const where = form === "single" ? "" : `${forms[0]}[${index}].`;
    const { profile, task } = (typeof item === "object" && item !== null ? item : {}) as Partial<DelegateTaskInput>;
    if (typeof task !== "string" || task.trim() === "") throw new Error(`${where}task must be a non-empty string.`);
    const found = typeof profile === "string" ? profiles.get(profile) : undefined;
    if (!found) throw new Error(`${where}profile ${JSON.stringify(profile ?? null)} is unknown; the profiles are: ${[...profiles.keys()].join(", ")}.`);
    return { profile: found, task };
  });
  return { form, tasks };
}
