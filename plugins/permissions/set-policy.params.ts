import { IsArray, IsIn, IsInt, Max, Min } from "class-validator";
import { DescribedRule, Optional, ref, type PermissionAction, type PermissionRule } from "../../core/family/family-api.js";
import { MAX_WAIT_SECONDS, PERMISSION_ACTIONS, ruleProblem } from "./rule-check.js";

export const MAX_RUNTIME_RULES = 256;

/** The first problem of a rule list, with its index; the rule check settings files use too (rule-check.ts). */
function rulesProblem(rules: unknown): string | undefined {
  if (!Array.isArray(rules)) return "rules must be an array";
  if (rules.length > MAX_RUNTIME_RULES) return `rules must have at most ${MAX_RUNTIME_RULES} items`;
  for (const [index, rule] of rules.entries()) {
    const problem = ruleProblem(rule);
    if (problem !== undefined) return `rules[${index}]: ${problem}`;
  }
  return undefined;
}

const IsPermissionRules = () =>
  DescribedRule({
    name: "isPermissionRules",
    // How `zi schema` describes this rule: merged into the property's schema.
    jsonSchema: { maxItems: MAX_RUNTIME_RULES, items: ref("PermissionRule") },
    validate: (rules) => rulesProblem(rules) === undefined,
    message: (rules) => rulesProblem(rules) ?? "rules is invalid",
  });

export class SetPolicyParams {
  @IsIn(PERMISSION_ACTIONS)
  default!: PermissionAction;

  @Optional()
  @IsArray()
  @IsPermissionRules()
  rules?: PermissionRule[];

  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_WAIT_SECONDS)
  waitSeconds?: number;
}
