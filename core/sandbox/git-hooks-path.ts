import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** How long git may take to answer once per repository; past it (a hung mount) the hooks path is unknown. */
const GIT_TIMEOUT_MS = 3000;
const answers = new Map<string, string | undefined>();

/**
 * The directory git runs the hooks of the repository holding `dir` from, as git itself resolves it:
 * `git rev-parse --git-path hooks` reads `core.hooksPath` from every config git reads (system, global,
 * the repository's, their includes and conditional includes), resolves a relative value against the
 * work tree and expands `~`; a parse of our own would miss one of those. Undefined outside a
 * repository, or when git is missing or does not answer in time. Asked once per directory: the
 * repository's config is inside `.git`, which the rules and the sandbox keep from being edited.
 */
export function gitHooksDir(dir: string): string | undefined {
  if (answers.has(dir)) return answers.get(dir);
  // The directory's own repository, not one an inherited GIT_DIR names.
  const { GIT_DIR: _dir, GIT_WORK_TREE: _tree, ...env } = process.env;
  // Relative to `dir` when relative (`--path-format=absolute` would need git 2.31).
  const run = spawnSync("git", ["-C", dir, "rev-parse", "--git-path", "hooks"], {
    encoding: "utf8",
    env: { ...env, GIT_OPTIONAL_LOCKS: "0" },
    stdio: ["ignore", "pipe", "ignore"],
    timeout: GIT_TIMEOUT_MS,
  });
  const answer = run.status === 0 && run.stdout.endsWith("\n") ? resolve(dir, run.stdout.slice(0, -1)) : undefined;
  // husky's layout (core.hooksPath `.husky/_`): the stubs there run the scripts beside them, in `.husky`.
  const hooks = answer !== undefined && basename(answer) === "_" ? dirname(answer) : answer;
  answers.set(dir, hooks);
  return hooks;
}

/** The top of the repository holding `path` (the nearest ancestor with a `.git`), or undefined. */
export function repositoryOf(path: string): string | undefined {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
