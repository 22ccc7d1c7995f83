import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** How long git may take to answer once per repository; past it (a hung mount) its places are unknown. */
const GIT_TIMEOUT_MS = 3000;
const answers = new Map<string, readonly string[]>();

/**
 * The directories of the repository holding `dir` whose contents git runs or obeys, as git itself
 * resolves them: its git directory and common directory (a worktree's, or `--separate-git-dir`'s,
 * wherever its `.git` file points) and the hooks directory (`git rev-parse --git-dir --git-common-dir
 * --git-path hooks`). That is git's reading of `core.hooksPath` in every config it reads (system,
 * global, the repository's, their includes and conditional includes), of a relative value (against the
 * work tree) and of `~`; a parse of our own would miss one of those. None outside a repository, or when
 * git is missing or does not answer in time. Asked once per directory: the config lies in the git
 * directory, which the rules and the sandbox keep from being edited.
 */
export function gitPlaces(dir: string): readonly string[] {
  const known = answers.get(dir);
  if (known) return known;
  // The directory's own repository, not one an inherited GIT_DIR names.
  const { GIT_DIR: _dir, GIT_WORK_TREE: _tree, ...env } = process.env;
  // Printed relative to `dir` when relative (`--path-format=absolute` would need git 2.31).
  const run = spawnSync("git", ["-C", dir, "rev-parse", "--git-dir", "--git-common-dir", "--git-path", "hooks"], {
    encoding: "utf8",
    env: { ...env, GIT_OPTIONAL_LOCKS: "0" },
    stdio: ["ignore", "pipe", "ignore"],
    timeout: GIT_TIMEOUT_MS,
  });
  const lines = run.status === 0 ? run.stdout.split("\n").slice(0, -1) : [];
  const places = lines.length === 3 ? lines.map((line) => resolve(dir, line)) : [];
  // husky's layout (core.hooksPath `.husky/_`): the stubs there run the scripts beside them, in `.husky`.
  const hooks = places[2];
  if (hooks !== undefined && basename(hooks) === "_") places[2] = dirname(hooks);
  answers.set(dir, places);
  return places;
}

/** The top of the repository holding `path` (the nearest ancestor with a `.git`, directory or file), or undefined. */
export function repositoryOf(path: string): string | undefined {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
