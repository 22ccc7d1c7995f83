import { AsyncFs } from "../config/async-fs.js";
import { join } from "node:path";
import { CONTEXT_LIMITS, type ContextLimits } from "./context-limits.js";
import { readPromptText } from "./context-text.js";
import type { ContextProblem, ShadowedSkill, Skill } from "./context-types.js";

/**
 * The parser and its YAML library (~160 KiB bundled) are loaded with the first SKILL.md read, not with
 * the session: a start without skills never compiles them (docs/performance.md).
 */
const skillParser = async () => (await import("./skill-parser.js")).SkillParser;

export interface SkillCatalogResult {
  skills: Skill[];
  shadowed: ShadowedSkill[];
  omitted: string[];
  problems: ContextProblem[];
}

type Limits = Pick<ContextLimits, "maxSkills" | "maxSkillFileBytes" | "maxSkillNameChars" | "maxSkillDescriptionChars">;

/**
 * The skills of a session: every folder with a SKILL.md in the given directories, which come in
 * priority order (a name already taken by an earlier directory is shadowed, not listed twice). Only the
 * front matter is read, through the bounded reader. A broken skill is a problem of its own, never the
 * end of the others.
 */
export class SkillCatalog {
  static async load(dirs: readonly string[], limits: Limits = CONTEXT_LIMITS): Promise<SkillCatalogResult> {
    const result: SkillCatalogResult = { skills: [], shadowed: [], omitted: [], problems: [] };
    const byName = new Map<string, Skill>();
    for (const dir of dirs) {
      for (const folder of await SkillCatalog.folders(dir, result.problems)) {
        const skill = await SkillCatalog.read(join(dir, folder), folder, limits, result.problems);
        if (!skill) continue;
        const earlier = byName.get(skill.name);
        if (earlier) result.shadowed.push({ name: skill.name, path: skill.path, shadowedBy: earlier.path });
        else if (byName.size >= limits.maxSkills) result.omitted.push(skill.name);
        else {
          byName.set(skill.name, skill);
          result.skills.push(skill);
        }
      }
    }
    return result;
  }

  /** The skill folders of `dir` by name; dot-entries and plain files (a README) are not skills. */
  private static async folders(dir: string, problems: ContextProblem[]): Promise<string[]> {
    let names: string[];
    try {
      names = (await AsyncFs.readdir(dir)).filter((name) => !name.startsWith(".")).sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT") problems.push({ source: dir, error: code === "ENOTDIR" ? "is not a directory" : `cannot be read (${code ?? "unknown error"})` });
      return [];
    }
    const folders: string[] = [];
    for (const name of names) {
      // stat, not lstat: a symlinked skill folder is a skill folder.
      const isDir = await AsyncFs.stat(join(dir, name)).then((stats) => stats.isDirectory(), () => false);
      if (isDir) folders.push(name);
    }
    return folders;
  }

  private static async read(folderPath: string, folder: string, limits: Limits, problems: ContextProblem[]): Promise<Skill | undefined> {
    const path = join(folderPath, "SKILL.md");
    const read = await readPromptText(path, limits.maxSkillFileBytes);
    if (read.status === "missing") {
      problems.push({ source: folderPath, error: "has no SKILL.md" });
      return undefined;
    }
    if (read.status === "refused") {
      problems.push({ source: path, error: read.reason });
      return undefined;
    }
    const SkillParser = await skillParser();
    try {
      return { ...SkillParser.parse(read.text, folder, limits), path };
    } catch (error) {
      problems.push({ source: path, error: (error as Error).message });
      return undefined;
    }
  }
}
