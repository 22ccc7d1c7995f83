import { AsyncFs } from "../config/async-fs.js";
import { join } from "node:path";
import type { Jiti } from "jiti";
import type { ZiExtension } from "./extension-api.js";
import type { ExtensionCandidate, ImportedExtension } from "./extension-types.js";
import { oneLine } from "./one-line.js";

/**
 * Imports extension modules with jiti, which runs TypeScript and JavaScript (ESM or CommonJS) alike,
 * transpiling TypeScript at run time. jiti itself is imported on the first extension only, so a Zi
 * without extensions never pays for it. Transpiled files are cached under `cacheDir`.
 */
export class ExtensionModuleLoader {
  private jiti: Promise<Jiti> | undefined;

  constructor(private readonly cacheDir: string | false) {}

  /** Never throws: a module that cannot be imported, or has no function as default export, is a problem. */
  async import(candidate: ExtensionCandidate): Promise<ImportedExtension> {
    const { name, origin } = candidate;
    if (candidate.problem !== undefined) return { name, origin, problem: candidate.problem };
    let module: unknown;
    try {
      module = await (await this.loader()).import(candidate.entry);
    } catch (error) {
      return { name, origin, problem: `failed to load: ${oneLine(error)}` };
    } finally {
      await this.privatizeCache();
    }
    const activate = (module as { default?: unknown } | null)?.default;
    if (typeof activate !== "function") {
      const found = activate === undefined ? "no default export" : `a default export of type ${activate === null ? "null" : typeof activate}`;
      return { name, origin, problem: `the default export must be a function (zi) => void; found ${found}` };
    }
    return { name, origin, activate: activate as ZiExtension };
  }

  private loader(): Promise<Jiti> {
    this.jiti ??= (async () => {
      // Created by us, private (jiti would create it 0755): transpiled extensions are the user's code.
      if (this.cacheDir) await AsyncFs.mkdir(this.cacheDir, { recursive: true, mode: 0o700 }).catch(() => undefined);
      const { createJiti } = await import("jiti");
      // interopDefault off: `default` must be the module's real default export (CommonJS: module.exports).
      return createJiti(import.meta.url, { interopDefault: false, fsCache: this.cacheDir });
    })();
    return this.jiti;
  }

  /** jiti writes its cache files with the default mode (0644 under the usual umask); they become 0600. */
  private async privatizeCache(): Promise<void> {
    if (!this.cacheDir) return;
    const names = await AsyncFs.readdir(this.cacheDir).catch(() => [] as string[]);
    for (const name of names) {
      const path = join(this.cacheDir, name);
      const info = await AsyncFs.stat(path).catch(() => undefined);
      if (info?.isFile() && (info.mode & 0o077) !== 0) await AsyncFs.chmod(path, 0o600).catch(() => undefined);
    }
  }
}
