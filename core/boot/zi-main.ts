import { readFileSync } from "node:fs";
import type { ZiOptions } from "../cli/cli-options.js";
import { RpcApplication, type FamilyLoader, type RpcApplicationIo } from "./rpc-application.js";
import type { SessionModule } from "./session-module.js";

const SIGNAL_EXIT_CODES: ReadonlyMap<NodeJS.Signals, number> = new Map([
  ["SIGHUP", 129],
  ["SIGINT", 130],
  ["SIGTERM", 143],
]);
const DISPOSE_BOUND_MS = 2000;

export type SessionModuleFactory = (options: ZiOptions) => Promise<SessionModule>;

/** One process of `zi --mode rpc`: create the session, serve the connection, dispose, report the exit code. */
export class ZiMain {
  constructor(
    private readonly options: ZiOptions,
    private readonly loadFamilies: FamilyLoader,
    private readonly createModule: SessionModuleFactory,
    private readonly io: RpcApplicationIo,
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
    // `on`, not `once`: a second signal (a double Ctrl-C) must not kill Zi by default mid-shutdown,
    // skipping the answers, the flush and the exit handlers that end its tools' process groups.
    for (const [signal, code] of SIGNAL_EXIT_CODES) process.on(signal, () => void app.server.shutdown(code));
    // An exception nobody caught (a throwing timer callback): an extension's is reported as its
    // extension_error and the session goes on; anything else leaves Zi in an unknown state, so it takes
    // the orderly shutdown path (in-flight requests answered) and exits 1. docs/extensions.md.
    process.on("uncaughtException", (error) => {
      this.io.log(`zi: uncaught exception: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (module.reportUncaught?.("exception", error)) return;
      this.io.log("zi: the exception is not an extension's: shutting down");
      void app.server.shutdown(1);
    });
    process.on("unhandledRejection", (reason) => void module.reportUncaught?.("rejection", reason));
    const code = await app.run();
    await Promise.race([
      module.dispose().catch((error) => this.io.log(`zi: dispose failed: ${(error as Error).stack ?? error}`)),
      new Promise((resolve) => setTimeout(resolve, DISPOSE_BOUND_MS).unref()),
    ]);
    return code;
  }
}
