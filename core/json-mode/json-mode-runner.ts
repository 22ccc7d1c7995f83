import type { SessionModule } from "../boot/session-module.js";
import { RpcError } from "../kernel/rpc-error.js";
import type { AgentSessionEvent } from "../wire/session-types.js";

export interface JsonModeIo {
  /** Writes one JSONL line; resolves when the stream can take more (backpressure). */
  writeLine(line: string): void | Promise<void>;
  log(message: string): void;
}

/** Exit statuses of `zi --mode json`. */
export const JSON_MODE_EXIT = Object.freeze({ completed: 0, failed: 1, usage: 2, interrupted: 130 });

/**
 * `zi --mode json "prompt"`: the one-shot alternative to RPC. It streams the same session events as
 * JSONL (one event object per line) until the run settles, then one `usage` line (session.get_usage's
 * answer), and exits with a status that says how the run ended: 0 completed, 1 failed (provider error, no usable model), 130 interrupted.
 */
export class JsonModeRunner {
  private lastEnd: AgentSessionEvent | undefined;

  constructor(
    private readonly module: SessionModule,
    private readonly io: JsonModeIo,
  ) {}

  async run(prompt: string, model: { provider: string; id: string } | undefined, signal: AbortSignal): Promise<number> {
    const unsubscribe = this.module.events.subscribe((event) => {
      if (event.type === "agent_end") this.lastEnd = event;
      return this.io.writeLine(JSON.stringify(event));
    });
    const onAbort = () => void this.module.session.interrupt();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      await this.module.afterReady();
      await this.module.restoreModel();
      if (model) await this.module.models.select(model.provider, model.id);
      if (this.module.session.getState().model.type === "unselected") {
        this.io.log("zi: no model selected: pass --model PROVIDER/ID (e.g. --model faux/echo) or set defaultModel in settings.json");
        return JSON_MODE_EXIT.usage;
      }
      await this.module.session.prompt({ delivery: "direct", text: prompt });
      await this.module.session.awaitIdle(undefined, new AbortController().signal);
      // The stream's last line: what the run cost (session.get_usage's answer).
      await this.io.writeLine(JSON.stringify({ type: "usage", usage: this.module.session.getUsage() }));
    } catch (error) {
      this.io.log(`zi: ${error instanceof RpcError ? error.message : ((error as Error).stack ?? String(error))}`);
      return JSON_MODE_EXIT.failed;
    } finally {
      signal.removeEventListener("abort", onAbort);
      unsubscribe();
    }
    if (signal.aborted) return JSON_MODE_EXIT.interrupted;
    const reason = this.lastEnd?.reason;
    return reason === "completed" ? JSON_MODE_EXIT.completed : reason === "interrupted" ? JSON_MODE_EXIT.interrupted : JSON_MODE_EXIT.failed;
  }
}
