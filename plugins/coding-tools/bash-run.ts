import { type ChildProcess, spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import type { AgentToolResult } from "../../core/session/agent-tool.js";
import type { BashOutputCollector } from "./bash-output-collector.js";
import { CODING_TOOL_LIMITS } from "./coding-tools-limits.js";
import { parentDeathPrefix, ProcessGroup } from "../shared/process-group.js";

export interface BashRunOptions {
  /** What to run: `bash -c COMMAND`, wrapped in the sandbox when it is on. */
  argv: readonly string[];
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  output: BashOutputCollector;
  onUpdate(partial: AgentToolResult): void;
}

export interface BashExit {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  interrupted: boolean;
}

const { killGraceMs, pipeDrainMs, updateIntervalMs, updateTailLines, updateTailBytes } = CODING_TOOL_LIMITS;

/**
 * One `bash -c` invocation. The shell leads its own process group so that a timeout or an
 * interrupt can end the whole tree: SIGTERM to the group, SIGKILL after a grace period, and a
 * final SIGKILL sweep for anything that outlived the shell. Both streams are piped, never
 * inherited: Zi's stdout carries protocol frames.
 */
export class BashRun {
  private child?: ChildProcess;
  private group?: ProcessGroup;
  private killedBy?: "timeout" | "interrupt";
  private exit: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
  private readonly timers = new Set<NodeJS.Timeout>();
  private updateTimer?: NodeJS.Timeout;
  private lastUpdateAt = 0;
  private exited = false;
  private chunksReceived = 0;
  private finished = false;
  private settle!: (exit: BashExit) => void;
  private fail!: (error: Error) => void;

  constructor(private readonly options: BashRunOptions) {}

  run(): Promise<BashExit> {
    return new Promise<BashExit>((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
      this.start();
    });
  }

  private start(): void {
    const { argv, cwd, timeoutMs, signal } = this.options;
    // Where util-linux allows it, the shell dies with Zi even when Zi is SIGKILLed (docs/protocol.md, Lifecycle).
    const [file, ...args] = [...parentDeathPrefix(), ...argv];
    const child = spawn(file!, args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"], env: process.env });
    this.child = child;
    child.once("error", (error) => this.finish(error));
    if (child.pid === undefined) return; // spawn failed; "error" follows
    this.group = new ProcessGroup(child as ChildProcess & { pid: number });
    for (const stream of [child.stdout!, child.stderr!]) {
      const decoder = new StringDecoder("utf8");
      stream.on("data", (data: Buffer) => this.receive(decoder.write(data)));
      stream.once("end", () => this.receive(decoder.end()));
    }
    child.once("exit", (code, exitSignal) => {
      this.exited = true;
      this.exit = { code, signal: exitSignal };
      // While killing, the SIGKILL step arms the drain instead, so the grace period is honoured.
      if (!this.killedBy) this.armDrain(true);
    });
    child.once("close", () => this.finish());
    this.after(timeoutMs, () => this.kill("timeout"));
    if (signal.aborted) this.kill("interrupt");
    else signal.addEventListener("abort", this.onAbort, { once: true });
  }

  private readonly onAbort = (): void => this.kill("interrupt");

  private kill(reason: "timeout" | "interrupt"): void {
    if (this.killedBy || this.finished) return;
    // The shell has exited and only background jobs hold the pipes: stop waiting, kill nothing.
    if (this.exited) return this.finish();
    this.killedBy = reason;
    this.group?.signal("SIGTERM");
    this.after(killGraceMs, () => {
      this.group?.signal("SIGKILL");
      this.armDrain(false);
    });
  }

  /**
   * Background jobs (`cmd &`) may keep the pipes open after the shell is gone. Stop reading once
   * the pipes have been quiet for `pipeDrainMs` (`sliding`; the command's timeout still bounds
   * this), or once that time has passed (after a SIGKILL). The final check runs in setImmediate,
   * after the event loop's I/O phase: a timer that fires late on a busy machine must not cut off
   * output that is already waiting in the pipe.
   */
  private armDrain(sliding: boolean): void {
    const seen = this.chunksReceived;
    this.after(pipeDrainMs, () =>
      setImmediate(() => {
        if (sliding && this.chunksReceived !== seen) this.armDrain(true);
        else this.finish();
      }),
    );
  }

  private receive(text: string): void {
    this.chunksReceived++;
    if (this.finished || text.length === 0) return;
    this.options.output.append(text);
    const wait = this.lastUpdateAt + updateIntervalMs - Date.now();
    if (wait <= 0) this.sendUpdate();
    else this.updateTimer ??= setTimeout(() => this.sendUpdate(), wait);
  }

  private sendUpdate(): void {
    this.updateTimer = undefined;
    if (this.finished) return;
    this.lastUpdateAt = Date.now();
    const { output } = this.options;
    const tail = output.tail(updateTailLines, updateTailBytes);
    this.options.onUpdate({ content: [{ type: "text", text: tail.text }], details: { totalBytes: output.bytes, truncated: tail.truncated } });
  }

  private after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, ms);
    this.timers.add(timer);
  }

  private finish(error?: Error): void {
    if (this.finished) return;
    this.finished = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.updateTimer) clearTimeout(this.updateTimer);
    this.options.signal.removeEventListener("abort", this.onAbort);
    // Whatever survived the shell in a killed tree (a child ignoring SIGTERM) ends now.
    if (this.killedBy) this.group?.signal("SIGKILL");
    this.group?.settle();
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    if (error) return this.fail(new Error(`bash could not be started: ${error.message}`));
    this.settle({
      exitCode: this.exit.code,
      signal: this.exit.signal,
      timedOut: this.killedBy === "timeout",
      interrupted: this.killedBy === "interrupt",
    });
  }
}
