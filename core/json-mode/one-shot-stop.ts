import type { SessionModule } from "../boot/session-module.js";
import type { ProcessShell } from "../shell/process-shell.js";

/**
 * How a one-shot run (`--mode json`, `-p`) stops and ends: the shell adopts the session, a signal (or an
 * uncaught exception no extension can be named for) aborts the run, and a shutdown's exit code stands
 * for the process's once the session is disposed.
 */
export class OneShotStop {
  private readonly controller = new AbortController();
  private shutdownCode: number | undefined;

  constructor(
    shell: Pick<ProcessShell, "onShutdown" | "adopt">,
    private readonly module: SessionModule,
    private readonly log: (message: string) => void,
  ) {
    shell.onShutdown((code) => {
      this.shutdownCode ??= code;
      this.controller.abort();
    });
    shell.adopt(module);
  }

  /** Aborted at shutdown: the run's stop signal. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Disposes the session; the process's exit code is then the shutdown's, else the run's. */
  async end(runCode: number): Promise<number> {
    await this.module.dispose().catch((error) => this.log(`zi: dispose failed: ${(error as Error).message}`));
    return this.shutdownCode ?? runCode;
  }
}
