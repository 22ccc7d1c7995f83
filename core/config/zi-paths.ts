import { homedir } from "node:os";
import { join, resolve } from "node:path";

export interface ZiPathsInput {
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * Every file location Zi reads or writes. `ZI_HOME` (default `~/.zi`) holds user-wide state; the
 * project's `.zi/` holds project settings and extensions. Computed once so that every module agrees.
 */
export class ZiPaths {
  readonly ziHome: string;
  readonly projectDir: string;

  constructor({ env, cwd }: ZiPathsInput) {
    const home = env.HOME || env.USERPROFILE || homedir();
    // A relative ZI_HOME is taken relative to the working directory, like any other path argument.
    this.ziHome = env.ZI_HOME ? resolve(cwd, env.ZI_HOME) : join(home, ".zi");
    this.projectDir = join(resolve(cwd), ".zi");
  }

  get sessionsDir(): string {
    return join(this.ziHome, "sessions");
  }

  /** The session catalogue's index (core/journal/session-catalog.ts), beside the journals. */
  get sessionIndexFile(): string {
    return join(this.sessionsDir, ".index.json");
  }

  /** Checkpoints of files Zi's tools changed (content-addressed, docs/sessions.md). */
  get checkpointsDir(): string {
    return join(this.ziHome, "checkpoints");
  }

  /** Where `session.export` writes when no path is given. */
  get exportsDir(): string {
    return join(this.ziHome, "exports");
  }

  get globalSettingsFile(): string {
    return join(this.ziHome, "settings.json");
  }

  get projectSettingsFile(): string {
    return join(this.projectDir, "settings.json");
  }

  get authFile(): string {
    return join(this.ziHome, "auth.json");
  }

  get modelsFile(): string {
    return join(this.ziHome, "models.json");
  }

  get globalExtensionsDir(): string {
    return join(this.ziHome, "extensions");
  }

  get projectExtensionsDir(): string {
    return join(this.projectDir, "extensions");
  }
}
