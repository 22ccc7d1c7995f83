import { RpcError } from "../kernel/rpc-error.js";
import { THINKING_LEVELS } from "../wire/session-types.js";
import type { ThinkingLevel } from "../wire/session-types.js";
import { JsonFile, type JsonObjectRead } from "./json-file.js";
import { warnOnStderr } from "./stderr-warning.js";
import type { Warn } from "./stderr-warning.js";
import type { ZiPaths } from "./zi-paths.js";

export type SettingsScope = "global" | "project";

export interface DefaultModelSetting {
  provider: string;
  id: string;
}

/**
 * Global (`ZI_HOME/settings.json`) and project (`.zi/settings.json`) settings. A key set in the
 * project file overrides the same key in the global one (whole values, no deep merge). A missing
 * file is empty; a malformed one is reported once on stderr and treated as empty.
 */
export class SettingsStore {
  private readonly files: ReadonlyMap<SettingsScope, JsonFile>;
  private readonly cache = new Map<SettingsScope, Map<string, unknown>>();
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    paths: ZiPaths,
    private readonly warn: Warn = warnOnStderr,
  ) {
    this.files = new Map([
      ["global", new JsonFile(paths.globalSettingsFile)],
      ["project", new JsonFile(paths.projectSettingsFile)],
    ]);
  }

  get(key: string): unknown {
    const project = this.scope("project");
    return project.has(key) ? project.get(key) : this.scope("global").get(key);
  }

  /** Whether the given file sets `key` at all. */
  has(scope: SettingsScope, key: string): boolean {
    return this.scope(scope).has(key);
  }

  /** A key of one file only. */
  getScoped(scope: SettingsScope, key: string): unknown {
    return this.scope(scope).get(key);
  }

  /** A key of the global file only, for decisions a project's own settings must not make (trust). */
  getGlobal(key: string): unknown {
    return this.scope("global").get(key);
  }

  /** A key of the project file only (for keys where the two files combine instead of overriding). */
  getProject(key: string): unknown {
    return this.scope("project").get(key);
  }

  /** The persisted thinking level, ignoring values that are not a known level. */
  getThinkingLevel(): ThinkingLevel | undefined {
    const value = this.get("thinkingLevel");
    return THINKING_LEVELS.find((level) => level === value);
  }

  /**
   * `defaultModel` as `"provider/id"` (split at the first slash, as `--model` is: ids may contain
   * slashes, provider names do not) or `{ provider, id }`. Anything else counts as unset.
   */
  getDefaultModel(): DefaultModelSetting | undefined {
    const value = this.get("defaultModel");
    if (typeof value === "string") {
      const slash = value.indexOf("/");
      return slash > 0 && slash < value.length - 1 ? { provider: value.slice(0, slash), id: value.slice(slash + 1) } : undefined;
    }
    if (typeof value !== "object" || value === null) return undefined;
    const { provider, id } = value as Record<string, unknown>;
    return typeof provider === "string" && typeof id === "string" ? { provider, id } : undefined;
  }

  /**
   * Merges `patch` into one scope's file (an `undefined` value removes the key). The file is
   * re-read first so edits made by another process since startup are kept. A malformed file is
   * not overwritten: the user's content wins over ours.
   */
  write(scope: SettingsScope, patch: Record<string, unknown>): Promise<void> {
    const next = this.writes.then(() => this.writeNow(scope, patch));
    this.writes = next.catch(() => undefined);
    return next;
  }

  /**
   * Reads both files without blocking (the composition root awaits this before the session is
   * built), so `get` is normally served from memory. A file that is not a regular file, or is over
   * the size bound, is reported once on stderr and treated as empty, like a malformed one.
   */
  async load(): Promise<void> {
    await Promise.all(
      [...this.files].map(async ([scope, file]) => {
        if (!this.cache.has(scope)) this.cache.set(scope, this.values(scope, await file.read()));
      }),
    );
  }

  /** Forgets cached contents; the next `get` re-reads both files. */
  reload(): void {
    this.cache.clear();
  }

  private async writeNow(scope: SettingsScope, patch: Record<string, unknown>): Promise<void> {
    const file = this.fileFor(scope);
    const current = await file.read();
    if (current.status === "invalid") {
      throw new RpcError("operation_failed", `cannot update ${scope} settings: settings.json ${current.reason}`);
    }
    const merged = new Map(current.status === "ok" ? Object.entries(current.value) : []);
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) merged.delete(key);
      else merged.set(key, value);
    }
    try {
      await file.writeObject(Object.fromEntries(merged));
    } catch (error) {
      throw new RpcError(
        "operation_failed",
        `cannot write ${scope} settings (${(error as NodeJS.ErrnoException).code ?? "write error"})`,
      );
    }
    this.cache.set(scope, merged);
  }

  private scope(scope: SettingsScope): Map<string, unknown> {
    let values = this.cache.get(scope);
    if (!values) {
      values = this.values(scope, this.fileFor(scope).readSync());
      this.cache.set(scope, values);
    }
    return values;
  }

  private values(scope: SettingsScope, read: JsonObjectRead): Map<string, unknown> {
    if (read.status === "invalid") this.warn(`${scope} settings ${this.fileFor(scope).path} ${read.reason}; ignoring it`);
    return new Map(read.status === "ok" ? Object.entries(read.value) : []);
  }

  private fileFor(scope: SettingsScope): JsonFile {
    return this.files.get(scope)!;
  }
}
