import type { ZiOptions } from "../cli/cli-options.js";
import type { SessionModule } from "../boot/session-module.js";
import type { OutputSink } from "../kernel/output-sink.js";
import { JsonLineWriter } from "./json-line-writer.js";
import { JsonModeRunner } from "./json-mode-runner.js";
import { OneShotStop } from "./one-shot-stop.js";
import type { ProcessShell } from "../shell/process-shell.js";


/** One process of `zi --mode json PROMPT`: run the prompt, stream its events, report how it ended. */
export class JsonMain {
  constructor(
    private readonly options: ZiOptions,
    private readonly createModule: (options: ZiOptions) => Promise<SessionModule>,
    private readonly output: OutputSink,
    private readonly log: (message: string) => void,
    private readonly shell: Pick<ProcessShell, "onShutdown" | "adopt">,
  ) {}

  async run(): Promise<number> {
    let module: SessionModule;
    try {
      module = await this.createModule(this.options);
    } catch (error) {
      this.log(`zi: cannot start: ${(error as Error).message}`);
      return 1;
    }
    const writer = new JsonLineWriter(this.output);
    const stop = new OneShotStop(this.shell, module, this.log);
    const code = await new JsonModeRunner(module, { writeLine: (line) => writer.writeLine(line), log: this.log }).run(
      this.options.prompt ?? "",
      this.options.model,
      stop.signal,
      this.options,
    );
    await writer.drained();
    return stop.end(code);
  }
}
