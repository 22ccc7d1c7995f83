import { TOOL_EFFECTS, type PermissionAction, type PermissionRule, type ToolEffect } from "../../core/wire/session-types.js";
import { ruleCommandTokens } from "./bash-command.js";

/**
 * What a rule is, checked without the matchers (no glob engine): imported by the family's params on
 * the first-response path, while the policy engine (permission-rule.ts and the rest) loads with the
 * plugin's deferred startup.
 */
export const PERMISSION_ACTIONS: readonly PermissionAction[] = ["allow", "ask", "deny"];
/** The wait bound's ceiling, in seconds (settings and `permission.set_policy`). */
export const MAX_WAIT_SECONDS = 86_400;

/** How strict an action is: a stricter one wins when several parts of a call disagree. */
export const SEVERITY: Readonly<Record<PermissionAction, number>> = { allow: 0, ask: 1, deny: 2 };

/** Why `value` is not a rule (the first problem), or undefined. Shared by settings files and `permission.set_policy`. */
export function ruleProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "a rule must be an object";
  const rule = value as Record<string, unknown>;
  for (const key of Object.keys(rule)) {
    if (!["action", "tool", "command", "path", "outsideCwd", "readOnly", "effect"].includes(key)) return `unknown rule field "${key}"`;
  }
  if (!PERMISSION_ACTIONS.includes(rule.action as PermissionAction)) return 'action must be "allow", "ask" or "deny"';
  for (const key of ["tool", "command", "path"]) {
    if (rule[key] !== undefined && (typeof rule[key] !== "string" || rule[key] === "")) return `${key} must be a non-empty string`;
  }
  // Paths are judged normalized (`src/../x` is `x`): a glob with a `..` part would match nothing, and a deny rule silently nothing.
  if (typeof rule.path === "string" && rule.path.split("/").includes("..")) return 'path must not hold a ".." part: a relative glob matches inside the working directory; write an absolute one (starting with "/") for a place outside';
  for (const key of ["outsideCwd", "readOnly"]) if (rule[key] !== undefined && rule[key] !== true) return `${key} must be true when present`;
  if (rule.effect !== undefined && !TOOL_EFFECTS.includes(rule.effect as ToolEffect)) return `effect must be one of ${TOOL_EFFECTS.join(", ")}`;
  if ([rule.tool, rule.command, rule.path, rule.outsideCwd, rule.readOnly, rule.effect].every((field) => field === undefined)) {
    return "a rule needs tool, command, path, outsideCwd, readOnly or effect";
  }
  if (typeof rule.command === "string") {
    const tokens = ruleCommandTokens(rule.command);
    if (typeof tokens === "string") return tokens;
  }
  if (rule.command !== undefined && (rule.path !== undefined || rule.outsideCwd !== undefined)) return "a rule is for a command or for a path, not both";
  return undefined;
}

/** A valid rule as a plain value (only its own fields, in a fixed order). */
export function normalizeRule(value: PermissionRule): PermissionRule {
  const rule: PermissionRule = { action: value.action };
  if (value.tool !== undefined) rule.tool = value.tool;
  if (value.command !== undefined) rule.command = value.command;
  if (value.path !== undefined) rule.path = value.path;
  if (value.outsideCwd) rule.outsideCwd = true;
  if (value.readOnly) rule.readOnly = true;
  if (value.effect !== undefined) rule.effect = value.effect;
  return rule;
}
