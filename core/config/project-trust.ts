import { AsyncFs } from "./async-fs.js";
import { isAbsolute, resolve } from "node:path";

/** The settings key, in `ZI_HOME/settings.json` only, that lists trusted project directories. */
export const TRUSTED_PROJECTS_KEY = "trustedProjects";

export interface ProjectTrustInput {
  /** The project directory: the working directory whose `.zi/` holds project extensions and settings. */
  projectRoot: string;
  /** `--trust-project` on the command line. */
  trustFlag: boolean;
  /**
   * The value of `trustedProjects` from the global settings. Never from the project's own settings:
   * a repository must not be able to trust itself.
   */
  trustedProjects: unknown;
}

const canonical = async (path: string): Promise<string> => AsyncFs.realpath(path).catch(() => resolve(path));

/**
 * The one decision whether project-local code may run (`.zi/extensions`, and every later kind of
 * project content that runs code): trusted when `--trust-project` is given, or when the project
 * directory is listed in the global `trustedProjects` (absolute paths; compared after resolving
 * symlinks; an exact directory, not its subdirectories). Anything else is untrusted.
 */
export async function isProjectTrusted(input: ProjectTrustInput): Promise<boolean> {
  if (input.trustFlag) return true;
  const listed: unknown[] = Array.isArray(input.trustedProjects) ? input.trustedProjects : [];
  const paths = listed.filter((entry): entry is string => typeof entry === "string" && isAbsolute(entry));
  if (paths.length === 0) return false;
  const root = await canonical(input.projectRoot);
  for (const path of paths) if ((await canonical(path)) === root) return true;
  return false;
}

/** How an untrusted project is told how to become trusted, in the one stderr line and event. */
export function untrustedHint(projectRoot: string): string {
  return `the project ${projectRoot} is not trusted; run with --trust-project, or add it to "${TRUSTED_PROJECTS_KEY}" in ZI_HOME/settings.json`;
}
