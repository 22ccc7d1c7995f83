import { AsyncFs } from "../config/async-fs.js";
import { join, resolve } from "node:path";
import { CONTEXT_LIMITS } from "./context-limits.js";
import { readPromptText } from "./context-text.js";
import type { ContextProblem, LoadedContext, SystemFile } from "./context-types.js";
import { ContextFileLoader } from "./context-file-loader.js";
import { EnvironmentProbe } from "./environment-probe.js";
import { SkillCatalog } from "./skill-catalog.js";

export interface AgentContextInput {
  ziHome: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The one project-trust decision (core/config/project-trust.ts). */
  projectTrusted: boolean;
  /** Why the project is not trusted and how to trust it, for what is skipped. */
  untrustedReason: string;
  now?: Date;
}

/** Where each kind of file lives; the project's are under the working directory, like `.zi/extensions`. */
export function contextPaths(ziHome: string, cwd: string) {
  const project = resolve(cwd);
  return {
    globalSystem: join(ziHome, "SYSTEM.md"),
    globalAppend: join(ziHome, "APPEND_SYSTEM.md"),
    globalSkills: join(ziHome, "skills"),
    projectSystem: join(project, ".zi", "SYSTEM.md"),
    projectAppend: join(project, ".zi", "APPEND_SYSTEM.md"),
    projectSkills: [join(project, ".zi", "skills"), join(project, ".agents", "skills")],
  };
}

/**
 * Reads everything a session's system prompt is built from, once per process start. The trust rule
 * (docs/context.md): AGENTS.md and CLAUDE.md load in any checkout, as every agent Zi's users know does;
 * the project's SYSTEM.md, APPEND_SYSTEM.md and skills steer the agent further (a SYSTEM.md replaces
 * Zi's own guidelines, a skill tells it what to run) and load only in a trusted project. Skipped
 * files are problems, so the user learns why they had no effect.
 */
export class AgentContextLoader {
  static async load(input: AgentContextInput): Promise<LoadedContext> {
    const paths = contextPaths(input.ziHome, input.cwd);
    const environment = await EnvironmentProbe.probe({ cwd: input.cwd, env: input.env, now: input.now });
    const problems: ContextProblem[] = [];
    const trusted = input.projectTrusted;
    const [contextFiles, globalSystem, globalAppend, projectSystem, projectAppend, skills] = await Promise.all([
      ContextFileLoader.load({ ziHome: input.ziHome, cwd: environment.cwd, root: environment.gitRoot ?? environment.cwd }),
      AgentContextLoader.systemFile(paths.globalSystem, "global", problems),
      AgentContextLoader.systemFile(paths.globalAppend, "global", problems),
      trusted ? AgentContextLoader.systemFile(paths.projectSystem, "project", problems) : undefined,
      trusted ? AgentContextLoader.systemFile(paths.projectAppend, "project", problems) : undefined,
      SkillCatalog.load([paths.globalSkills, ...(trusted ? paths.projectSkills : [])]),
    ]);
    problems.push(...contextFiles.problems, ...skills.problems);
    if (!trusted) problems.push(...(await AgentContextLoader.skipped(paths, input.untrustedReason)));
    return {
      environment,
      contextFiles: contextFiles.files,
      system: projectSystem ?? globalSystem,
      appends: [globalAppend, projectAppend].filter((file): file is SystemFile => file !== undefined),
      skills: skills.skills,
      shadowedSkills: skills.shadowed,
      omittedSkills: skills.omitted,
      problems,
      projectTrusted: trusted,
    };
  }

  private static async systemFile(path: string, origin: SystemFile["origin"], problems: ContextProblem[]): Promise<SystemFile | undefined> {
    const read = await readPromptText(path, CONTEXT_LIMITS.maxSystemFileBytes);
    if (read.status === "missing") return undefined;
    if (read.status === "refused") {
      problems.push({ source: path, error: read.reason });
      return undefined;
    }
    return { path, origin, content: read.text, clipped: read.clipped };
  }

  /** What an untrusted project has that was left out: one problem per file or skills directory. */
  private static async skipped(paths: ReturnType<typeof contextPaths>, reason: string): Promise<ContextProblem[]> {
    const problems: ContextProblem[] = [];
    for (const path of [paths.projectSystem, paths.projectAppend]) {
      if (await AsyncFs.lstat(path).then(() => true, () => false)) problems.push({ source: path, error: reason });
    }
    for (const dir of paths.projectSkills) {
      const names = (await AsyncFs.readdir(dir).catch(() => [] as string[])).filter((name) => !name.startsWith(".")).sort();
      if (names.length === 0) continue;
      const shown = names.length > 20 ? `${names.slice(0, 20).join(", ")}, …` : names.join(", ");
      problems.push({ source: dir, error: `skipped ${names.length} project skill(s) (${shown}): ${reason}` });
    }
    return problems;
  }
}
