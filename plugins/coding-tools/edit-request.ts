/** One replacement of an `edit` call. */
export interface EditSpec {
  oldText: string;
  newText: string;
  replaceAll: boolean;
}

export const MAX_EDITS = 64;

/** Names other agents' edit tools use, which models carry over. */
const ALIASES: ReadonlyArray<readonly [string, string]> = [
  ["old_text", "oldText"],
  ["new_text", "newText"],
  ["old_string", "oldText"],
  ["new_string", "newText"],
  ["oldString", "oldText"],
  ["newString", "newText"],
  ["replace_all", "replaceAll"],
];

function renamed(value: Record<string, unknown>): Record<string, unknown> {
  const out = { ...value };
  for (const [from, to] of ALIASES) {
    if (from in out && !(to in out)) {
      out[to] = out[from];
      delete out[from];
    }
  }
  return out;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Repairs the shapes models are known to send before the arguments meet the schema: `edits` as a
 * JSON string, one edit object instead of an array, snake_case or Claude-style field names.
 * Anything else is left for the schema to reject.
 */
export function repairEditArguments(args: unknown): unknown {
  if (!isRecord(args)) return args;
  const out = renamed(args);
  let edits = out.edits;
  if (typeof edits === "string") {
    try {
      edits = JSON.parse(edits) as unknown;
    } catch {
      return out;
    }
  }
  if (isRecord(edits)) edits = [edits];
  if (Array.isArray(edits)) out.edits = edits.map((edit) => (isRecord(edit) ? renamed(edit) : edit));
  return out;
}
