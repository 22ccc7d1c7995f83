import { isAbsolute, resolve } from "node:path";
import { SANDBOX_MODES, type SandboxMode, type SandboxState } from "../wire/session-types.js";

/** The settings key of both files: `{ "sandbox": { "mode", "network", "writableRoots" } }`. */
export const SANDBOX_KEY = "sandbox";

/**
 * With nothing configured, `bash` runs as the user (like Claude Code's default; Codex defaults to
 * `workspace-write`): the sandbox needs bubblewrap and user namespaces, which many containers lack, and
 * turning it on silently where it cannot start would fail every command. `ready.state.sandbox` says
 * so before the first call; docs/sandbox.md recommends `workspace-write`.
 */
export const DEFAULT_SANDBOX: Pick<SandboxState, "mode" | "network" | "writableRoots"> = { mode: "off", network: false, writableRoots: [] };

export type SandboxLayer = Partial<Pick<SandboxState, "mode" | "network" | "writableRoots">>;

/** How strict a mode is; an untrusted project may only pick a stricter one. */
export const sandboxStrictness = (mode: SandboxMode): number => SANDBOX_MODES.length - SANDBOX_MODES.indexOf(mode);

function readLayer(value: unknown, file: string, cwd: string, warnings: string[]): SandboxLayer {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    warnings.push(`${file}: "sandbox" must be an object; ignored`);
    return {};
  }
  const { mode, network, writableRoots, ...rest } = value as Record<string, unknown>;
  const layer: SandboxLayer = {};
  for (const key of Object.keys(rest)) warnings.push(`${file}: sandbox.${key} is not a sandbox setting; ignored`);
  if (mode !== undefined) {
    if (SANDBOX_MODES.includes(mode as SandboxMode)) layer.mode = mode as SandboxMode;
    else warnings.push(`${file}: sandbox.mode must be ${SANDBOX_MODES.map((one) => `"${one}"`).join(", ")}; ignored`);
  }
  if (network !== undefined) {
    if (typeof network === "boolean") layer.network = network;
    else warnings.push(`${file}: sandbox.network must be true or false; ignored`);
  }
  if (writableRoots !== undefined) {
    if (Array.isArray(writableRoots) && writableRoots.every((root) => typeof root === "string" && root !== "")) {
      layer.writableRoots = (writableRoots as string[]).map((root) => (isAbsolute(root) ? root : resolve(cwd, root)));
    } else warnings.push(`${file}: sandbox.writableRoots must be a list of paths; ignored`);
  }
  return layer;
}

/**
 * The sandbox the settings ask for: ZI_HOME/settings.json, then `--sandbox`, then the project's
 * `.zi/settings.json`, which in an untrusted project may only tighten (a stricter mode, network off;
 * its writable roots are ignored).
 */
export function sandboxSettings(globalValue: unknown, projectValue: unknown, projectTrusted: boolean, flag: SandboxMode | undefined, cwd: string) {
  const warnings: string[] = [];
  const global = readLayer(globalValue, "ZI_HOME/settings.json", cwd, warnings);
  const project = readLayer(projectValue, ".zi/settings.json", cwd, warnings);
  const base = { ...DEFAULT_SANDBOX, ...global, ...(flag === undefined ? {} : { mode: flag }) };
  if (projectTrusted) return { settings: { ...base, ...project, ...(flag === undefined ? {} : { mode: flag }) }, warnings };
  const settings = { ...base };
  if (project.mode !== undefined) {
    if (sandboxStrictness(project.mode) > sandboxStrictness(settings.mode)) settings.mode = project.mode;
    else if (project.mode !== settings.mode) warnings.push(`.zi/settings.json: sandbox.mode "${project.mode}" ignored: an untrusted project may only tighten the sandbox`);
  }
  if (project.network === false) settings.network = false;
  else if (project.network === true && !settings.network) warnings.push(".zi/settings.json: sandbox.network ignored: an untrusted project may only tighten the sandbox");
  if (project.writableRoots?.length) warnings.push(".zi/settings.json: sandbox.writableRoots ignored: an untrusted project may only tighten the sandbox");
  return { settings, warnings };
}
