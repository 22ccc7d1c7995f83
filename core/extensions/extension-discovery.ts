import { AsyncFs } from "../config/async-fs.js";
import { basename, join, resolve } from "node:path";
import type { ExtensionOrigin } from "../ports/commands.port.js";
import type { ExtensionCandidate } from "./extension-types.js";

const MODULE_FILE = /\.(ts|mts|js|mjs)$/;
const INDEX_FILES = ["index.ts", "index.mts", "index.js", "index.mjs"];

export interface ExtensionDiscoveryOptions {
  /** `ZI_HOME/extensions/` */
  globalDir: string;
  /** `<cwd>/.zi/extensions/` */
  projectDir: string;
  /** Every `--extension PATH`, in command-line order; relative paths resolve against `cwd`. */
  cliPaths: readonly string[];
  cwd: string;
  /**
   * The project trust decision (core/config/project-trust.ts). Untrusted: the project directory's
   * extensions are not loaded; if there are any, one candidate with a problem names them all.
   */
  projectTrusted: boolean;
  /** Why the project is not trusted and how to trust it, for that candidate's problem. */
  untrustedReason?: string;
}

/**
 * Finds the extensions to load, in load order: the global directory, the project directory (each
 * sorted by name), then `--extension` paths in order. In a directory, every `*.ts|*.mts|*.js|*.mjs`
 * file (not `*.d.ts`) and every subdirectory with an index file is one extension; other entries,
 * dot-entries and `node_modules` are ignored. A file reached twice (by real path) loads once, from
 * its first source. A `--extension` path that is missing or has no index is a candidate with a problem.
 */
export class ExtensionDiscovery {
  constructor(private readonly options: ExtensionDiscoveryOptions) {}

  async find(): Promise<ExtensionCandidate[]> {
    const { globalDir, projectDir, cliPaths, cwd } = this.options;
    const found = [...(await this.scan(globalDir, "global")), ...(await this.projectCandidates(projectDir))];
    for (const path of cliPaths) found.push(await this.explicit(resolve(cwd, path)));
    const seen = new Set<string>();
    const unique: ExtensionCandidate[] = [];
    for (const candidate of found) {
      const key = candidate.problem === undefined ? await AsyncFs.realpath(candidate.entry).catch(() => candidate.entry) : candidate.name;
      if (seen.has(key)) continue;
      seen.add(key);
      unique.push(candidate);
    }
    return unique;
  }

  private async projectCandidates(projectDir: string): Promise<ExtensionCandidate[]> {
    const candidates = await this.scan(projectDir, "project");
    if (this.options.projectTrusted || candidates.length === 0) return candidates;
    const names = candidates.map((candidate) => basename(candidate.name)).join(", ");
    const reason = this.options.untrustedReason ?? "the project is not trusted";
    const problem = `skipped ${candidates.length} project extension(s) (${names}): ${reason}`;
    return [{ name: projectDir, origin: "project", entry: projectDir, problem }];
  }

  /**
   * The one decision whether content of the project's `.zi/` loads (core/config/project-trust.ts):
   * its extensions here, and the agent profiles in `.zi/agents/` (ExtensionRuntime hands the same
   * answer to plugins).
   */
  loadsProjectContent(): boolean {
    return this.options.projectTrusted;
  }

  private async scan(dir: string, origin: ExtensionOrigin): Promise<ExtensionCandidate[]> {
    let names: string[];
    try {
      names = (await AsyncFs.readdir(dir)).sort();
    } catch {
      return []; // no such directory: nothing to load
    }
    const candidates: ExtensionCandidate[] = [];
    for (const name of names) {
      if (name.startsWith(".") || name === "node_modules") continue;
      const path = join(dir, name);
      const kind = await ExtensionDiscovery.kind(path);
      if (kind === "file" && MODULE_FILE.test(name) && !name.endsWith(".d.ts")) {
        candidates.push({ name: path, origin, entry: path });
      } else if (kind === "directory") {
        const index = await ExtensionDiscovery.index(path);
        if (index) candidates.push({ name: path, origin, entry: index });
      }
    }
    return candidates;
  }

  private async explicit(path: string): Promise<ExtensionCandidate> {
    const kind = await ExtensionDiscovery.kind(path);
    if (kind === "file") return { name: path, origin: "cli", entry: path };
    if (kind === "directory") {
      const index = await ExtensionDiscovery.index(path);
      if (index) return { name: path, origin: "cli", entry: index };
      return { name: path, origin: "cli", entry: path, problem: `the directory has no ${INDEX_FILES.join(", ")}` };
    }
    return { name: path, origin: "cli", entry: path, problem: "no such file or directory" };
  }

  private static async index(dir: string): Promise<string | undefined> {
    for (const name of INDEX_FILES) {
      if ((await ExtensionDiscovery.kind(join(dir, name))) === "file") return join(dir, name);
    }
    return undefined;
  }

  /** Follows symlinks, so a linked extension counts as what it points to. */
  private static async kind(path: string): Promise<"file" | "directory" | undefined> {
    try {
      const info = await AsyncFs.stat(path);
      return info.isFile() ? "file" : info.isDirectory() ? "directory" : undefined;
    } catch {
      return undefined;
    }
  }
}
