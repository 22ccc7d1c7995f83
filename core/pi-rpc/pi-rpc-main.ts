import { JsonlFramer } from "../kernel/jsonl-framer.js";
import type { OutputSink } from "../kernel/output-sink.js";
import { RPC_LIMITS } from "../wire/limits.js";
import { SHUTDOWN_BOUNDS, within, type ProcessShell } from "../shell/process-shell.js";
import { EncodedEvent } from "./pi-event-mapper.js";
import { PiModels } from "./pi-models.js";
import { PiRpcFrontEnd } from "./pi-rpc-front-end.js";
import type { PiRpcFlags } from "./pi-rpc-options.js";
import type { PiJournalStart } from "./pi-sessions.js";
import type { MethodCalls } from "./method-calls.js";

/** The Zi session behind the front end: its methods, and what the process shell does with it. */
export interface PiRpcSession {
  methods: MethodCalls;
  /** Discard queued input and interrupt active work (a disconnect); resolves once settled. */
  cancel(): Promise<void>;
  dispose(): Promise<void>;
  /** An uncaught exception: true when an extension's (reported, the session goes on). */
  reportUncaught?(kind: "exception" | "rejection", error: unknown): boolean;
}

/**
 * Output records pending before stdin stops being read (RPC mode holds at the same count): a client
 * that sends without reading stalls itself, never Zi's memory. Events wait on their writes anyway.
 */
const PENDING_OUTPUT_RECORDS = 128;

export interface PiRpcIo {
  input: NodeJS.ReadableStream;
  output: OutputSink;
  log: (message: string) => void;
}

/**
 * One process of `zi --mode pi-rpc`: pi 0.73.1's RPC protocol on stdin/stdout (docs/pi-rpc.md). The
 * command line's model, thinking level and tool list are applied first (a failure is pi's `Error:` line
 * and exit 1); then records are read, split on LF bytes, until stdin closes or a signal arrives, and the
 * session is interrupted, output flushed and the session disposed, each step bounded as in RPC mode.
 * Signals, uncaught errors, redaction and the exit are the process shell's.
 */
export class PiRpcMain {
  private pendingWrites = 0;
  private drainedWaiters: (() => void)[] = [];
  private writable = true;
  private holds = 0;
  private outputHeld = false;

  constructor(
    private readonly session: PiRpcSession,
    private readonly flags: PiRpcFlags | undefined,
    private readonly io: PiRpcIo,
    private readonly shell: ProcessShell,
    /** How the session was opened: `--no-session`, `--session FILE` (pi's `sessionFile`). */
    private readonly journal: PiJournalStart = { noSession: true },
  ) {}

  async run(): Promise<number> {
    for (const warning of this.flags?.warnings ?? []) this.io.log(`Warning: ${warning}`);
    let fail: (code: number) => void = () => undefined;
    const failed = new Promise<number>((resolve) => (fail = resolve));
    const startup = this.applyFlags().catch((error: Error) => {
      this.io.log(`Error: ${error.message}`);
      fail(1);
      throw error;
    });
    startup.catch(() => undefined);
    const frontEnd = new PiRpcFrontEnd(this.session.methods, (frame) => this.write(frame), this.io.log, this.flags, startup, this.journal, {
      pause: () => this.hold(1),
      resume: () => this.hold(-1),
    });
    frontEnd.attach();
    let exit: (code: number) => void = () => undefined;
    const ended = new Promise<number>((resolve) => (exit = resolve));
    this.shell.onShutdown((code) => exit(code));
    const forget = this.shell.adopt(this.session);
    this.read(frontEnd, exit);
    const code = await Promise.race([ended, failed]);
    this.io.input.removeAllListeners("data");
    await within(this.session.cancel(), SHUTDOWN_BOUNDS.settleMs);
    await within(frontEnd.settled(), SHUTDOWN_BOUNDS.settleMs);
    await within(this.drained(), SHUTDOWN_BOUNDS.flushMs);
    this.writable = false;
    frontEnd.detach();
    forget();
    await within(this.session.dispose(), SHUTDOWN_BOUNDS.disposeMs);
    return code;
  }

  /** Records split on LF bytes (never readline, which also splits on U+2028), Zi's record bound kept. */
  private read(frontEnd: PiRpcFrontEnd, exit: (code: number) => void): void {
    const framer = new JsonlFramer(RPC_LIMITS.maxRecordBytes);
    const next = (take: () => string | null): boolean => {
      try {
        for (let record = take(); record !== null; record = take()) if (record.trim() !== "") frontEnd.line(record);
        return true;
      } catch (error) {
        // A record over the bound or not UTF-8: pi's parse error, then the connection ends, as in RPC mode.
        void this.write({ type: "response", command: "parse", success: false, error: `Failed to parse command: ${(error as Error).message}` });
        framer.discard();
        exit(1);
        return false;
      }
    };
    this.io.input.on("data", (chunk: Buffer) => {
      framer.push(chunk);
      next(() => framer.next());
    });
    this.io.input.on("end", () => {
      if (next(() => framer.finish())) void frontEnd.settled().then(() => exit(0));
    });
  }

  /** `--provider`/`--model`/`--thinking`/`--tools`, through the same methods a client would call. */
  private async applyFlags(): Promise<void> {
    const flags = this.flags;
    if (!flags) return;
    const methods = this.session.methods;
    let thinking = flags.thinking;
    if (flags.model !== undefined) {
      const models = new PiModels(methods, flags.models);
      // An exact provider and id, the usual case, selects without listing the whole catalogue.
      const exact = await models.trySelect(flags.provider, flags.model);
      if (!exact) {
        const resolved = await models.resolve(flags.provider, flags.model);
        await methods.call("model.select", { provider: resolved.model.provider, id: resolved.model.id });
        thinking ??= resolved.thinking;
      }
    }
    if (thinking !== undefined) await methods.call("thinking.select", { level: thinking });
    if (flags.tools !== undefined) {
      if (!methods.has("permission.set_policy")) throw new Error("--tools needs the permissions plugin, which is not loaded");
      // The listed tools run; any other call is denied (the model is still offered every tool: docs/pi-rpc.md).
      await methods.call("permission.set_policy", { default: "deny", rules: flags.tools.map((tool) => ({ action: "allow", tool })) });
    }
  }

  private write(frame: Record<string, unknown> | EncodedEvent): Promise<void> {
    if (!this.writable) return Promise.resolve();
    const line = `${frame instanceof EncodedEvent ? frame.json : JSON.stringify(frame)}\n`;
    this.pendingWrites++;
    this.throttleOutput();
    return new Promise<void>((resolve) => {
      this.io.output.write(line, () => {
        this.pendingWrites--;
        this.throttleOutput();
        if (this.pendingWrites === 0) for (const wake of this.drainedWaiters.splice(0)) wake();
        resolve();
      });
    });
  }

  /** Input holds at PENDING_OUTPUT_RECORDS pending writes and goes on at half that (one hold, one release). */
  private throttleOutput(): void {
    if (!this.outputHeld && this.pendingWrites >= PENDING_OUTPUT_RECORDS) {
      this.outputHeld = true;
      this.hold(1);
    } else if (this.outputHeld && this.pendingWrites <= PENDING_OUTPUT_RECORDS / 2) {
      this.outputHeld = false;
      this.hold(-1);
    }
  }

  /** Input is read while nothing holds it: pending output and waiting commands each may. */
  private hold(change: 1 | -1): void {
    this.holds += change;
    if (this.holds === 1 && change === 1) this.io.input.pause();
    else if (this.holds === 0 && this.writable) this.io.input.resume();
  }

  private drained(): Promise<void> {
    if (this.pendingWrites === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainedWaiters.push(resolve));
  }
}
