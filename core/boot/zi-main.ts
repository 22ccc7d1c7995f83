import { readFileSync } from "node:fs";
import type { ZiOptions } from "../cli/cli-options.js";
import { RpcApplication, type FamilyLoader, type RpcApplicationIo } from "./rpc-application.js";
import type { SessionModule } from "./session-module.js";
import { SHUTDOWN_BOUNDS, within, type ProcessShell } from "../shell/process-shell.js";


export type SessionModuleFactory = (options: ZiOptions) => Promise<SessionModule>;

/** One process of `zi --mode rpc`: create the session, serve the connection, dispose, report the exit code. */
export class ZiMain {
  constructor(
    private readonly options: ZiOptions,
    private readonly loadFamilies: FamilyLoader,
    private readonly createModule: SessionModuleFactory,
    private readonly io: RpcApplicationIo,
    private readonly shell: Pick<ProcessShell, "onShutdown" | "adopt">,
  ) {}

  /** Read from package.json, found upwards from this file (dist/ when built, the tree under ts-node). */
  static version(): string {
    for (let dir = new URL(".", import.meta.url); dir.pathname !== "/"; dir = new URL("..", dir)) {
      try {
        const pkg = JSON.parse(readFileSync(new URL("package.json", dir), "utf8")) as { name?: string; version: string };
        if (pkg.name === "zi") return `zi ${pkg.version}`;
      } catch {
        // not here: keep walking up
      }
    }
    return "zi (unknown version)";
  }

  async run(): Promise<number> {
    let module: SessionModule;
    let app: RpcApplication;
    try {
      module = await this.createModule(this.options);
      app = new RpcApplication(module, this.loadFamilies, this.io);
    } catch (error) {
      this.io.log(`zi: cannot start: ${(error as Error).message}`);
      return 1;
    }
    // Signals, and an uncaught exception no extension can be named for, take the orderly shutdown path
    // (in-flight requests answered); an extension's is reported as its extension_error (ProcessShell).
    this.shell.onShutdown((code) => void app.server.shutdown(code));
    this.shell.adopt(module);
    const code = await app.run();
    await within(
      module.dispose().catch((error) => this.io.log(`zi: dispose failed: ${(error as Error).stack ?? error}`)),
      SHUTDOWN_BOUNDS.disposeMs,
    );
    return code;
  }
}
