import type { PermissionAction, PermissionRule } from "../../core/wire/session-types.js";
import { MAX_WAIT_SECONDS, PERMISSION_ACTIONS, ruleProblem, SEVERITY } from "./rule-check.js";

/** The settings key both files use: `{ "permissions": { "default", "rules", "waitSeconds" } }`. */
export const PERMISSIONS_KEY = "permissions";

export interface SettingsPolicy {
  default: PermissionAction;
  rules: { rule: PermissionRule; source: "global" | "project" }[];
  waitSeconds: number | undefined;
  /** One line each: what was ignored and why. */
  warnings: string[];
}

interface FileLayer {
  default?: PermissionAction;
  rules: PermissionRule[];
  waitSeconds?: number;
}

function readLayer(value: unknown, file: string, warnings: string[]): FileLayer {
  const layer: FileLayer = { rules: [] };
  if (value === undefined) return layer;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    warnings.push(`${file}: "permissions" must be an object; ignored`);
    return layer;
  }
  const { default: defaultAction, rules, waitSeconds } = value as Record<string, unknown>;
  if (defaultAction !== undefined) {
    if (PERMISSION_ACTIONS.includes(defaultAction as PermissionAction)) layer.default = defaultAction as PermissionAction;
    else warnings.push(`${file}: permissions.default must be "allow", "ask" or "deny"; ignored`);
  }
  if (waitSeconds !== undefined) {
    if (Number.isInteger(waitSeconds) && (waitSeconds as number) >= 1 && (waitSeconds as number) <= MAX_WAIT_SECONDS) layer.waitSeconds = waitSeconds as number;
    else warnings.push(`${file}: permissions.waitSeconds must be an integer from 1 to ${MAX_WAIT_SECONDS}; ignored`);
  }
  if (rules !== undefined && !Array.isArray(rules)) warnings.push(`${file}: permissions.rules must be an array; ignored`);
  for (const [index, rule] of (Array.isArray(rules) ? rules : []).entries()) {
    const problem = ruleProblem(rule);
    if (problem === undefined) layer.rules.push(rule as PermissionRule);
    else warnings.push(`${file}: permissions.rules[${index}] ignored: ${problem}`);
  }
  return layer;
}

/**
 * The settings half of the policy. The project's `.zi/settings.json` adds to `ZI_HOME/settings.json`
 * (rules of both apply); an untrusted project may only tighten: its `allow` rules are ignored, its
 * default counts only when stricter, its wait bound only when shorter.
 */
export function settingsPolicy(globalValue: unknown, projectValue: unknown, projectTrusted: boolean): SettingsPolicy {
  const warnings: string[] = [];
  const global = readLayer(globalValue, "ZI_HOME/settings.json", warnings);
  const project = readLayer(projectValue, ".zi/settings.json", warnings);
  let defaultAction = global.default ?? "allow";
  let waitSeconds = global.waitSeconds;
  const rules: SettingsPolicy["rules"] = global.rules.map((rule) => ({ rule, source: "global" as const }));
  if (projectTrusted) {
    defaultAction = project.default ?? defaultAction;
    waitSeconds = project.waitSeconds ?? waitSeconds;
    rules.push(...project.rules.map((rule) => ({ rule, source: "project" as const })));
  } else {
    if (project.default !== undefined && SEVERITY[project.default] > SEVERITY[defaultAction]) defaultAction = project.default;
    else if (project.default !== undefined && project.default !== defaultAction) {
      warnings.push(`.zi/settings.json: permissions.default "${project.default}" ignored: an untrusted project may only tighten the policy`);
    }
    if (project.waitSeconds !== undefined) waitSeconds = Math.min(project.waitSeconds, waitSeconds ?? project.waitSeconds);
    const loosening = project.rules.filter((rule) => rule.action === "allow").length;
    if (loosening > 0) warnings.push(`.zi/settings.json: ${loosening} "allow" rule(s) ignored: an untrusted project may only tighten the policy`);
    rules.push(...project.rules.filter((rule) => rule.action !== "allow").map((rule) => ({ rule, source: "project" as const })));
  }
  return { default: defaultAction, rules, waitSeconds, warnings };
}
