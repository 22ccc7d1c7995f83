import { AsyncFs } from "../config/async-fs.js";
import { dirname, join, resolve } from "node:path";
import type { PromptEnvironment } from "./context-types.js";

export interface EnvironmentInput {
  cwd: string;
  env: NodeJS.ProcessEnv;
  now?: Date;
  platform?: string;
  arch?: string;
}

const pad = (value: number): string => String(value).padStart(2, "0");

/**
 * The facts the model is told about where it runs. Git is found by its `.git` entry, not by running
 * git: a directory in a clone, a file in a worktree or submodule; no process, nothing to hang on.
 */
export class EnvironmentProbe {
  static async probe(input: EnvironmentInput): Promise<PromptEnvironment> {
    const cwd = resolve(input.cwd);
    return {
      cwd,
      date: EnvironmentProbe.localDate(input.now ?? new Date()),
      platform: `${input.platform ?? process.platform} (${input.arch ?? process.arch})`,
      shell: input.env.SHELL || undefined,
      gitRoot: await EnvironmentProbe.gitRoot(cwd),
    };
  }

  /** `YYYY-MM-DD` in the local time zone: the user's today, not UTC's. */
  static localDate(now: Date): string {
    return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  }

  /** The nearest directory at or above `dir` that holds a `.git` entry, or null. */
  static async gitRoot(dir: string): Promise<string | null> {
    for (let current = resolve(dir); ; current = dirname(current)) {
      const found = await AsyncFs.lstat(join(current, ".git")).then(
        (stats) => stats.isDirectory() || stats.isFile(),
        () => false,
      );
      if (found) return current;
      if (dirname(current) === current) return null;
    }
  }
}
