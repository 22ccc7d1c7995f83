import { sliceChars } from "../wire/utf8-clip.js";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isString = (value: unknown): value is string => typeof value === "string";
const isHash = (value: unknown): boolean => value === null || (typeof value === "string" && /^[0-9a-f]{64}$/.test(value));

/**
 * Only the fields the indexes read are checked: a line that would make an index throw or lie is
 * rejected at load time, everything else is trusted as written (the journal wrote it itself).
 */
const TYPE_CHECKS = new Map<string, (entry: Record<string, unknown>) => boolean>([
  ["session", (e) => e.version === 1 && isString(e.sessionId) && isString(e.cwd)],
  ["message", (e) => isRecord(e.message) && isString(e.message.role)],
  ["model_change", (e) => isString(e.provider) && isString(e.modelId)],
  ["thinking_level_change", (e) => isString(e.thinkingLevel)],
  ["custom", (e) => isString(e.customType)],
  ["custom_message", (e) => isString(e.customType) && typeof e.display === "boolean" && isString(e.content)],
  ["work_plan", (e) => isRecord(e.workPlan) && Array.isArray(e.workPlan.steps)],
  [
    "operation_outcome",
    (e) =>
      isString(e.operationId) &&
      isString(e.capability) &&
      isString(e.operation) &&
      isString(e.result) &&
      typeof e.durationMs === "number",
  ],
  ["subagent", () => true],
  ["permission", () => true],
  ["compaction", (e) => isString(e.summary) && isString(e.firstKeptEntryId)],
  ["branch", (e) => isString(e.fromId) && isString(e.parentId) && (e.summary === undefined || isString(e.summary))],
  ["file_checkpoint", (e) => isString(e.path) && isHash(e.before) && isHash(e.after)],
  ["rewind", (e) => (e.phase === "begin" || e.phase === "end") && isString(e.targetId) && (e.files === undefined || Array.isArray(e.files))],
]);

/** Why a parsed journal line is not a usable entry, or null when it is. */
export function entryProblem(value: unknown): string | null {
  if (!isRecord(value)) return "not a JSON object";
  if (!isString(value.type)) return "no entry type";
  const check = TYPE_CHECKS.get(value.type);
  if (!check) return `unknown entry type "${sliceChars(value.type, 40)}"`;
  if (!isString(value.id) || value.id === "") return "no entry id";
  if (value.parentId !== null && !isString(value.parentId)) return "bad parentId";
  if (!isString(value.timestamp)) return "no timestamp";
  return check(value) ? null : `malformed ${value.type} entry`;
}
