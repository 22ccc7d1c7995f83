import type { Readable } from "node:stream";
import type { ZiOptions } from "../cli/cli-options.js";
import type { SessionModule } from "../boot/session-module.js";
import type { OutputSink } from "../kernel/output-sink.js";
import { ZiPaths } from "../config/zi-paths.js";
import { latestSessionFile } from "../interactive/latest-session.js";
import { SessionCatalog } from "../journal/session-catalog.js";
import { RPC_LIMITS } from "../wire/limits.js";
import type { AgentSessionEvent, ThinkingLevel } from "../wire/session-types.js";

import { JsonModeRunner } from "./json-mode-runner.js";
import { OneShotStop } from "./one-shot-stop.js";
import type { ProcessShell } from "../shell/process-shell.js";
import { RUN_EXIT_CODES as ONE_SHOT_EXIT } from "./run-exit-codes.js";
import type { RunResult } from "./run-result-line.js";


export interface PrintIo {
  /** Piped stdin, whose text is added to the prompt; undefined when stdin is a terminal. */
  input: Readable | undefined;
  output: OutputSink;
  log: (message: string) => void;
}

/**
 * `zi -p PROMPT`: the run of `--mode json` (the same runner, so the same model selection, permission
 * denials and exit statuses), with only the final answer's text on stdout. What went wrong (a failed
 * run, a denied tool call) is said on stderr.
 */
export class PrintMain {
  constructor(
    private readonly options: ZiOptions,
    private readonly createModule: (options: ZiOptions) => Promise<SessionModule>,
    private readonly io: PrintIo,
    private readonly shell: Pick<ProcessShell, "onShutdown" | "adopt">,
  ) {}

  async run(): Promise<number> {
    const prompt = await this.prompt();
    if (typeof prompt === "number") return prompt;
    let module: SessionModule;
    try {
      // -c: the latest session of this directory goes on (a new one when there is none).
      const paths = new ZiPaths({ env: process.env, cwd: process.cwd() });
      const catalog = new SessionCatalog(paths.sessionsDir, paths.sessionIndexFile);
      const sessionFile = this.options.pick === "continue" ? await latestSessionFile(catalog, process.cwd()) : this.options.sessionFile;
      module = await this.createModule({ ...this.options, sessionFile });
    } catch (error) {
      this.io.log(`zi: cannot start: ${(error as Error).message}`);
      return ONE_SHOT_EXIT.failed;
    }
    const stop = new OneShotStop(this.shell, module, this.io.log);
    let result: RunResult | undefined;
    // The runner hands over each line --mode json would print; print mode keeps stderr notes of what
    // went wrong and the result line, which says how the run ended and what it answered.
    const writeLine = (line: string) => {
      const event = JSON.parse(line) as AgentSessionEvent | RunResult;
      if (event.type === "result") result = event;
      else if (event.type === "tool_execution_end" && event.isError) {
        const content = (event.result as { content?: { type: string; text?: string }[] } | undefined)?.content;
        const text = content?.find((block) => block.type === "text")?.text;
        this.io.log(`zi: tool ${event.toolName} failed: ${text ?? "(no message)"}`);
      }
    };
    const code = await new JsonModeRunner(withThinking(module, this.options.thinking), { writeLine, log: this.io.log }).run(prompt, this.options.model, stop.signal, this.options);
    if (code === ONE_SHOT_EXIT.completed && result) {
      // With --output-schema, the parsed value (a fence around the JSON is not the answer); else the text.
      const answer = result.structured !== undefined ? JSON.stringify(result.structured) : result.text;
      await new Promise<void>((resolve) => this.io.output.write(answer.endsWith("\n") ? answer : `${answer}\n`, () => resolve()));
    } else if (result?.status === "budget_exceeded" && result.budget) this.io.log(`zi: the run reached its ${result.budget.scope} budget ${result.budget.budget} (${result.budget.used} of ${result.budget.limit})`);
    else if (result?.errorMessage) this.io.log(`zi: the run ${result.status === "structured_output_invalid" ? "gave no answer matching the schema" : "failed"}: ${result.errorMessage}`);
    else if (code === ONE_SHOT_EXIT.interrupted) this.io.log("zi: interrupted");
    return stop.end(code);
  }

  /** The positional prompt, then piped stdin after a blank line (as `pi -p` and `claude -p` take it). */
  private async prompt(): Promise<string | number> {
    const limit = RPC_LIMITS.maxPromptTextBytes;
    let piped = "";
    if (this.io.input) {
      const chunks: Buffer[] = [];
      let bytes = 0;
      for await (const chunk of this.io.input as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > limit) {
          this.io.log(`zi: the prompt is over ${limit} bytes`);
          return ONE_SHOT_EXIT.usage;
        }
        chunks.push(chunk);
      }
      piped = Buffer.concat(chunks).toString("utf8");
    }
    const parts = [this.options.prompt ?? "", piped].filter((part) => part.trim() !== "");
    const prompt = parts.join("\n\n");
    if (prompt === "") {
      this.io.log("zi: -p needs a prompt (arguments, or text piped on stdin)");
      return ONE_SHOT_EXIT.usage;
    }
    if (Buffer.byteLength(prompt) > limit) {
      this.io.log(`zi: the prompt is over ${limit} bytes`);
      return ONE_SHOT_EXIT.usage;
    }
    return prompt;
  }
}

/**
 * `--thinking LEVEL`: selected right after the runner selects the model (a level is clamped to what
 * the model supports, so it can only be chosen once the model is known).
 */
function withThinking(module: SessionModule, level: ThinkingLevel | undefined): SessionModule {
  if (level === undefined) return module;
  const select = async () => {
    if (module.session.getState().model.type === "selected") await module.thinking.select(level, undefined);
  };
  const models: SessionModule["models"] = Object.create(module.models);
  models.select = async (provider, id) => {
    const selected = await module.models.select(provider, id);
    await select();
    return selected;
  };
  const view: SessionModule = Object.create(module);
  Object.defineProperties(view, {
    models: { value: models },
    restoreModel: { value: async () => (await module.restoreModel(), await select()) },
  });
  return view;
}
