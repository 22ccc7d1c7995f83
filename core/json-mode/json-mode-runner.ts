import { readFile } from "node:fs/promises";
import type { SessionModule } from "../boot/session-module.js";
import { RpcError } from "../kernel/rpc-error.js";
import type { BudgetLimits } from "../wire/budget-types.js";
import type { PromptInput } from "../wire/session-types.js";
import { RUN_EXIT_CODES } from "./run-exit-codes.js";
import { RunResultLine } from "./run-result-line.js";

export interface JsonModeIo {
  /** Writes one JSONL line; resolves when the stream can take more (backpressure). */
  writeLine(line: string): void | Promise<void>;
  log(message: string): void;
}

/** What the one-shot modes add to a prompt (docs/headless.md): the run's budget and an output schema file. */
export interface HeadlessOptions {
  budget?: BudgetLimits;
  outputSchemaFile?: string;
}

/** A problem with the command line found once the session exists: exit code 2, no run. */
class HeadlessUsageError extends Error {}

/**
 * `zi --mode json "prompt"`: the one-shot alternative to RPC. It streams the same session events as
 * JSONL (one event object per line) until the run settles, then one `result` line (status, final text,
 * the structured answer, usage, cost, duration, the session file), and exits with the status's code
 * (run-exit-codes.ts; docs/headless.md).
 */
export class JsonModeRunner {
  private readonly result = new RunResultLine();

  constructor(
    private readonly module: SessionModule,
    private readonly io: JsonModeIo,
  ) {}

  async run(prompt: string, model: { provider: string; id: string } | undefined, signal: AbortSignal, headless: HeadlessOptions = {}): Promise<number> {
    const unsubscribe = this.module.events.subscribe((event) => {
      this.result.observe(event);
      return this.io.writeLine(JSON.stringify(event));
    });
    const onAbort = () => void this.module.session.interrupt();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      const outputSchema = headless.outputSchemaFile === undefined ? undefined : await JsonModeRunner.readSchema(headless.outputSchemaFile);
      await this.module.afterReady();
      await this.module.restoreModel();
      if (model) await this.module.models.select(model.provider, model.id);
      if (this.module.session.getState().model.type === "unselected") {
        this.io.log("zi: no model selected: pass --model PROVIDER/ID (e.g. --model faux/echo) or set defaultModel in settings.json");
        return RUN_EXIT_CODES.usage;
      }
      if (headless.budget && Object.keys(headless.budget).length > 0) this.setBudget(headless.budget);
      this.result.start(this.module.session.getUsage());
      await this.admit(outputSchema === undefined ? { delivery: "direct", text: prompt } : { delivery: "direct", text: prompt, outputSchema });
      await this.module.session.awaitIdle(undefined, new AbortController().signal);
      const line = this.result.build(this.module.session.getUsage(), this.module.sessionFile ?? null, signal.aborted);
      // The stream's last line: how the run ended, its answer and what it cost.
      await this.io.writeLine(JSON.stringify(line));
      return line.exitCode;
    } catch (error) {
      if (error instanceof HeadlessUsageError) {
        this.io.log(`zi: ${error.message}`);
        return RUN_EXIT_CODES.usage;
      }
      this.io.log(`zi: ${error instanceof RpcError ? error.message : ((error as Error).stack ?? String(error))}`);
      return RUN_EXIT_CODES.failed;
    } finally {
      signal.removeEventListener("abort", onAbort);
      unsubscribe();
    }
  }

  /** A prompt refused before admission (a schema that does not compile, a spent budget) is the command line's problem. */
  private async admit(input: PromptInput): Promise<void> {
    try {
      await this.module.session.prompt(input);
    } catch (error) {
      if (error instanceof RpcError) throw new HeadlessUsageError(error.message);
      throw error;
    }
  }

  /** The budget flags are the run's budget; one the session refuses (no price for maxCostUsd) is a usage error. */
  private setBudget(budget: BudgetLimits): void {
    try {
      this.module.session.setBudget({ run: budget });
    } catch (error) {
      throw new HeadlessUsageError(error instanceof RpcError ? error.message : String(error));
    }
  }

  private static async readSchema(file: string): Promise<Record<string, unknown>> {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new HeadlessUsageError(`--output-schema ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    try {
      const schema: unknown = JSON.parse(text);
      if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new Error("not a JSON object");
      return schema as Record<string, unknown>;
    } catch (error) {
      throw new HeadlessUsageError(`--output-schema ${file} is not a JSON Schema object: ${(error as Error).message}`);
    }
  }
}
