import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ZiClient, type ZiClientOptions } from "../../client/zi-client.js";

export const ZI_BIN = resolve("dist/bin/zi.js");
export const RECORD_EXTENSION = resolve("test/fixtures/record-outcome.extension.mjs");

export interface TestZiOptions extends ZiClientOptions {
  fauxScript?: object;
  extensions?: string[];
  /** Written to `ZI_HOME/settings.json` before Zi starts. */
  settings?: object;
}

/**
 * Starts the built zi in a fresh ZI_HOME (also its cwd, so project settings land there too) and
 * remembers it, so `closeAll` in afterEach never leaves a Zi running after a failed test.
 */
export class BuiltZi {
  private static readonly live = new Set<ZiClient>();
  private static readonly homes: string[] = [];

  /** A fresh temporary ZI_HOME, removed by `killAll`. */
  static home(): string {
    const home = mkdtempSync(join(tmpdir(), "zi-client-test-"));
    BuiltZi.homes.push(home);
    return home;
  }

  static async start(options: TestZiOptions = {}): Promise<ZiClient> {
    if (!existsSync(ZI_BIN)) throw new Error(`${ZI_BIN} is missing: run \`npm run build\` first`);
    const { fauxScript, extensions, settings, ...clientOptions } = options;
    const home = BuiltZi.home();
    if (settings) writeFileSync(join(home, "settings.json"), JSON.stringify(settings));
    const ziArgs = [...(options.ziArgs ?? ["--no-session"])];
    for (const extension of extensions ?? []) ziArgs.push("--extension", extension);
    if (fauxScript) {
      const file = join(home, "faux-script.json");
      writeFileSync(file, JSON.stringify(fauxScript));
      ziArgs.push("--faux-script", file);
    }
    const client = await ZiClient.start({
      ziPath: ZI_BIN,
      cwd: home,
      env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home },
      ...clientOptions,
      ziArgs,
    });
    BuiltZi.live.add(client);
    void client.connection.exited.then(() => BuiltZi.live.delete(client));
    return client;
  }

  /** For afterEach: kills what is still running and removes every home handed out. */
  static killAll(): void {
    for (const client of BuiltZi.live) client.connection.child.kill("SIGKILL");
    BuiltZi.live.clear();
    for (const home of BuiltZi.homes.splice(0)) rmSync(home, { recursive: true, force: true });
  }
}
