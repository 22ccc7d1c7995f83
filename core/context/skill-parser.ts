import { parse as parseYaml } from "yaml";
import { CONTEXT_LIMITS, type ContextLimits } from "./context-limits.js";
import { yamlDeeperThan } from "../config/yaml-depth.js";
import { MAX_JSON_DEPTH } from "../wire/json-depth.js";

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
/** Agent Skills names: lowercase letters, digits and single hyphens, not at either end. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Reads the front matter of a SKILL.md (agentskills.io): `name` (1-64 lowercase letters, digits and
 * hyphens, the skill folder's own name) and `description` (1-1024 characters). Other keys (`license`,
 * `allowed-tools`, `metadata`, …) are allowed and ignored. Throws an Error saying what is wrong.
 */
export class SkillParser {
  static parse(text: string, folder: string, limits: Pick<ContextLimits, "maxSkillNameChars" | "maxSkillDescriptionChars"> = CONTEXT_LIMITS): { name: string; description: string } {
    const match = FRONT_MATTER.exec(text);
    if (!match) throw new Error("SKILL.md must start with YAML front matter between --- lines");
    // The YAML composer recurses per level: deeper front matter is refused before it runs.
    if (yamlDeeperThan(match[1]!, MAX_JSON_DEPTH)) throw new Error(`the front matter nests deeper than ${MAX_JSON_DEPTH} levels`);
    let data: unknown;
    try {
      data = parseYaml(match[1]!);
    } catch (error) {
      throw new Error(`invalid YAML front matter (${(error as Error).message.split("\n")[0]})`);
    }
    if (typeof data !== "object" || data === null || Array.isArray(data)) throw new Error("the front matter must be a YAML mapping");
    const { name, description } = data as Record<string, unknown>;
    if (typeof name !== "string" || name.length === 0) throw new Error('field "name": required');
    if (name.length > limits.maxSkillNameChars || !NAME.test(name)) {
      throw new Error(`field "name": ${JSON.stringify(name.slice(0, 80))} must be 1-${limits.maxSkillNameChars} lowercase letters, digits and single hyphens`);
    }
    if (name !== folder) throw new Error(`field "name": "${name}" must match its folder's name "${folder}"`);
    if (typeof description !== "string" || description.trim() === "") throw new Error('field "description": required');
    const oneLine = description.trim().replace(/\s+/g, " ");
    if ([...oneLine].length > limits.maxSkillDescriptionChars) {
      throw new Error(`field "description": longer than ${limits.maxSkillDescriptionChars} characters`);
    }
    return { name, description: oneLine };
  }
}
