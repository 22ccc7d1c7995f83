import { parse as parseYaml } from "yaml";
import { yamlDeeperThan } from "../../core/config/yaml-depth.js";
import { MAX_JSON_DEPTH } from "../../core/wire/json-depth.js";
import { THINKING_LEVELS, type ThinkingLevel } from "../../core/wire/session-types.js";
import type { AgentProfile, ProfileOrigin } from "./agent-profile.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
// A tool name, or a prefix pattern ending in `*` (`mcp__github__*`: every tool of one MCP server).
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$|^[A-Za-z0-9_-]{1,63}\*$/;
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
/**
 * The longest budget a profile may set: one week. Node's timers hold at most 2^31-1 ms (24.8 days);
 * a longer delay would fire at once, so the bound is checked here, where the file is read.
 */
export const MAX_RUNTIME_SECONDS = 7 * 24 * 60 * 60;
const KEYS: ReadonlySet<string> = new Set(["name", "description", "tools", "model", "thinking", "maxTurns", "maxRuntimeSeconds"]);

/** A profile file that cannot be used, and the front-matter field at fault ("front matter" for the whole). */
export class ProfileError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`field "${field}": ${message}`);
  }
}

/**
 * Parses a profile file: `---`, YAML front matter (parsed by the `yaml` library), `---`, then the
 * Markdown body, which becomes the child's system prompt. Throws ProfileError naming the field.
 */
export function parseProfile(text: string, source: string, origin: ProfileOrigin): AgentProfile {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new ProfileError("front matter", "the file must start with a --- line, YAML front matter, and a closing --- line");
  let data: unknown;
  try {
    if (yamlDeeperThan(match[1]!, MAX_JSON_DEPTH)) throw new Error(`nests deeper than ${MAX_JSON_DEPTH} levels`);
    data = parseYaml(match[1]!);
  } catch (error) {
    throw new ProfileError("front matter", `invalid YAML (${(error as Error).message.split("\n")[0]})`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new ProfileError("front matter", "must be a YAML mapping");
  const fields = new Map(Object.entries(data));
  for (const key of fields.keys()) if (!KEYS.has(key)) throw new ProfileError(key, "unknown field");
  const name = fields.get("name");
  if (typeof name !== "string" || !NAME.test(name)) throw new ProfileError("name", "required: 1-64 letters, digits, '_' or '-'");
  const description = fields.get("description");
  if (typeof description !== "string" || description.trim() === "") throw new ProfileError("description", "required: a non-empty string");
  const systemPrompt = text.slice(match[0].length).trim();
  if (systemPrompt === "") throw new ProfileError("body", "the Markdown body (the child's system prompt) must not be empty");
  const profile: AgentProfile = { name, description: description.trim(), systemPrompt, origin, source };
  const tools = fields.get("tools");
  if (tools !== undefined && tools !== null) profile.tools = toolList(tools);
  const model = fields.get("model");
  if (model !== undefined && model !== null) profile.model = modelRef(model);
  const thinking = fields.get("thinking");
  if (thinking !== undefined && thinking !== null) {
    if (!THINKING_LEVELS.includes(thinking as ThinkingLevel)) throw new ProfileError("thinking", `one of ${THINKING_LEVELS.join(", ")}`);
    profile.thinking = thinking as ThinkingLevel;
  }
  const maxTurns = fields.get("maxTurns");
  if (maxTurns !== undefined && maxTurns !== null) profile.maxTurns = positive(maxTurns, "maxTurns", true);
  const maxRuntime = fields.get("maxRuntimeSeconds");
  if (maxRuntime !== undefined && maxRuntime !== null) {
    profile.maxRuntimeSeconds = positive(maxRuntime, "maxRuntimeSeconds", false);
    if (profile.maxRuntimeSeconds > MAX_RUNTIME_SECONDS) throw new ProfileError("maxRuntimeSeconds", `at most ${MAX_RUNTIME_SECONDS} (7 days)`);
  }
  return profile;
}

function toolList(value: unknown): string[] {
  // `tools: read, grep` is common in other agents' profiles: accept a comma-separated string too.
  const items = typeof value === "string" ? value.split(",").map((item) => item.trim()).filter((item) => item !== "") : value;
  if (!Array.isArray(items)) throw new ProfileError("tools", "a list of tool names");
  for (const item of items) {
    if (typeof item !== "string" || !TOOL_NAME.test(item)) throw new ProfileError("tools", `invalid tool name ${JSON.stringify(item)}`);
  }
  return [...new Set(items as string[])];
}

function modelRef(value: unknown): { provider: string; id: string } {
  const slash = typeof value === "string" ? value.indexOf("/") : -1;
  if (typeof value !== "string" || slash <= 0 || slash === value.length - 1) throw new ProfileError("model", "provider/id, e.g. faux/echo");
  return { provider: value.slice(0, slash), id: value.slice(slash + 1) };
}

function positive(value: unknown, field: string, integer: boolean): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new ProfileError(field, integer ? "a positive integer" : "a positive number");
  }
  return value;
}

