import { existsSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { SandboxState } from "../wire/session-types.js";
import { writablePlaces } from "./sandbox-places.js";

/** What one sandboxed command may see, beyond the mode: where it runs and what stays read-only inside writable roots. */
export interface SandboxPlace {
  cwd: string;
  /** Directories kept read-only even inside a writable root (the user's settings, ZI_HOME). */
  protectedPaths: readonly string[];
  /**
   * A user-written argv (an MCP server's): for an absolute path in it under /tmp (the program, a script
   * it runs, a directory it serves), its top-level directory there is bound back read-only, or the
   * private /tmp would hide it.
   */
  argv?: readonly string[];
}

/**
 * The bubblewrap arguments for one command (before the command's own argv). The whole filesystem is
 * mounted read-only, with fresh /dev, /proc and a private /tmp; in `workspace-write` the cwd and the
 * added roots are bound writable on top, then `.git`, `.zi` and the protected paths read-only again.
 * Every capability is dropped (as root bwrap would keep them, and with them writes through
 * /proc/self/root), the command gets its own user, pid, ipc and uts namespaces (and network unless
 * allowed), a new session (no terminal injection), and dies with Zi: when Zi is killed, bwrap's
 * `--die-with-parent` kills the namespace's first process, and with it every process in it.
 */
export function bwrapArguments(state: Pick<SandboxState, "mode" | "network" | "writableRoots">, place: SandboxPlace): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  // Before the cwd's own bind: one inside a writable cwd is then writable as the cwd is.
  // The whole top-level directory under /tmp: a script imports its neighbours (its node_modules) too.
  const visible = new Set((place.argv ?? []).filter((path) => isAbsolute(path) && path.startsWith("/tmp/") && existsSync(path)).map((path) => `/tmp/${path.slice(5).split("/")[0]}`));
  for (const dir of visible) args.push("--ro-bind", dir, dir);
  if (state.mode === "workspace-write") {
    const { roots, readOnly } = writablePlaces(state, place.cwd, place.protectedPaths);
    for (const root of roots) args.push("--bind", root, root);
    // bubblewrap binds only what exists: a `.git` the command creates is its own.
    for (const path of readOnly) if (existsSync(path)) args.push("--ro-bind", path, path);
  } else {
    // The private /tmp hides a cwd that lies under /tmp: it comes back, read-only.
    args.push("--ro-bind", place.cwd, place.cwd);
  }
  args.push("--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (!state.network) args.push("--unshare-net");
  args.push("--cap-drop", "ALL", "--die-with-parent", "--new-session", "--chdir", place.cwd);
  return args;
}
