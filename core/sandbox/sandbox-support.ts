import { spawn } from "node:child_process";
import type { SandboxSupport } from "../wire/session-types.js";

/** The program the sandbox runs on; found on PATH, like any command. */
export const BWRAP = "bwrap";

const FIX_INSTALL = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap), or run without the sandbox: --sandbox off, or \"sandbox\": { \"mode\": \"off\" } in settings.json";
const FIX_USERNS =
  "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu kernel.apparmor_restrict_unprivileged_userns=0; in a container, run it with user namespaces allowed, e.g. docker --security-opt seccomp=unconfined), or run without the sandbox: --sandbox off";

/**
 * Whether bubblewrap can start a sandbox here: one real, empty sandbox (`true` inside the same
 * namespaces the commands get), so a container that forbids user namespaces is found before the first
 * call, with its reason, never by a command that "exits 0 and runs nothing".
 */
export function checkSandboxSupport(): Promise<SandboxSupport> {
  return new Promise((resolve) => {
    const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-user", "--unshare-pid", "--unshare-net", "--cap-drop", "ALL", "--die-with-parent", "--", "true"];
    let stderr = "";
    const child = spawn(BWRAP, args, { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.on("data", (data: Buffer) => void (stderr += data.toString("utf8")));
    child.once("error", (error: NodeJS.ErrnoException) => {
      const reason = error.code === "ENOENT" ? `bubblewrap (${BWRAP}) was not found on PATH` : `bubblewrap (${BWRAP}) could not be started: ${error.message}`;
      resolve({ status: "unavailable", reason, fix: FIX_INSTALL });
    });
    child.once("close", (code) => {
      if (code === 0) resolve({ status: "available", base: "bubblewrap" });
      else if (code !== null || stderr !== "") resolve({ status: "unavailable", reason: `bubblewrap cannot create its namespaces here: ${stderr.trim().split("\n")[0] || `exit code ${code}`}`, fix: FIX_USERNS });
    });
  });
}
