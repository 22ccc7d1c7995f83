import { Redactor } from "../config/redactor.js";
import { redactStderr } from "../config/stderr-redaction.js";
import type { OutputSink } from "../kernel/output-sink.js";

/** Exit codes of the signals Zi ends on (128 + the signal number), for every mode. */
export const SIGNAL_EXIT_CODES: ReadonlyMap<NodeJS.Signals, number> = new Map([
  ["SIGHUP", 129],
  ["SIGINT", 130],
  ["SIGTERM", 143],
]);

/** The shutdown bounds of docs/protocol.md (Lifecycle), one set for every mode: settle, flush, dispose. */
export const SHUTDOWN_BOUNDS = Object.freeze({ settleMs: 5000, flushMs: 5000, disposeMs: 2000 });

/** What can name the extension an uncaught error came from: a session module (`SessionModule.reportUncaught`). */
export interface UncaughtReporter {
  reportUncaught?(kind: "exception" | "rejection", error: unknown): boolean;
}

/** Resolves when `promise` settles or `ms` have passed, whichever comes first; never rejects. */
export function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise.then(noop, noop), timeout]).finally(() => clearTimeout(timer));
}

const noop = (): void => undefined;
let installed: ProcessShell | undefined;

/**
 * The process around every front end (RPC, JSON, ACP, and any later one): the one place that owns
 *
 * - **signals**: SIGHUP, SIGINT and SIGTERM call the front end's shutdown with 129, 130, 143 (`on`,
 *   not `once`: a second Ctrl-C must not kill Zi mid-shutdown, skipping its tools' process-group sweep);
 * - **the uncaught-exception policy**: an exception or rejection nobody caught is logged; one an
 *   adopted session can attribute to an extension is reported as that extension's `extension_error`
 *   and every session goes on; any other exception means an unknown state: shutdown with exit code 1;
 * - **redaction**: one `Redactor` for the process, fed by every session's credentials; frames (through
 *   `output`) and every stderr write (through `log` and `process.stderr` itself) are scrubbed with it;
 * - **the exit**: `exit` waits (bounded) for stderr to drain before `process.exit`, which drops queued
 *   pipe writes.
 *
 * A front end only speaks its wire format: it calls `onShutdown` once, `adopt`s each session it opens,
 * writes frames through `output`, and ends with `exit`.
 */
export class ProcessShell {
  readonly redactor = new Redactor();
  /** Frames on their way to the real stdout, scrubbed of every secret the process knows. */
  readonly output: OutputSink;
  private readonly reporters = new Set<UncaughtReporter>();
  private shutdown: ((code: number) => void) | undefined;
  /** A signal or fatal error before the front end registered its shutdown: delivered on registration. */
  private early: number | undefined;

  private constructor(stdout: OutputSink) {
    this.output = {
      write: (data, done) => stdout.write(typeof data === "string" ? this.redactor.redactJson(data) : this.redactor.redactJsonBytes(data), done),
    };
    redactStderr((text) => this.redactor.redact(text));
    for (const [signal, code] of SIGNAL_EXIT_CODES) process.on(signal, () => this.end(code));
    process.on("uncaughtException", (error) => this.uncaught("exception", error));
    process.on("unhandledRejection", (reason) => this.uncaught("rejection", reason));
  }

  /** Installs the shell once per process (a second call returns the first shell). */
  static install(stdout: OutputSink): ProcessShell {
    installed ??= new ProcessShell(stdout);
    return installed;
  }

  /** One line to stderr (scrubbed, as every stderr write is). */
  readonly log = (message: string): void => void process.stderr.write(`${message}\n`);

  /** The front end's one shutdown path; a signal that arrived before this call is delivered now. */
  onShutdown(shutdown: (code: number) => void): void {
    this.shutdown = shutdown;
    if (this.early !== undefined) shutdown(this.early);
  }

  /** A session whose extensions uncaught errors may be attributed to; the returned function forgets it. */
  adopt(reporter: UncaughtReporter): () => void {
    this.reporters.add(reporter);
    return () => void this.reporters.delete(reporter);
  }

  /** Resolves once stderr has drained (bounded by the flush bound): `process.exit` drops queued pipe writes. */
  flush(): Promise<void> {
    return within(drained(process.stderr), SHUTDOWN_BOUNDS.flushMs);
  }

  /** Flushes stderr, then exits with `code`. */
  async exit(code: number): Promise<never> {
    await this.flush();
    process.exit(code);
  }

  private end(code: number): void {
    if (this.shutdown) this.shutdown(code);
    else this.early ??= code;
  }

  private uncaught(kind: "exception" | "rejection", error: unknown): void {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.log(kind === "exception" ? `zi: uncaught exception: ${text}` : `zi: unhandled promise rejection: ${text}`);
    for (const reporter of this.reporters) if (reporter.reportUncaught?.(kind, error)) return;
    // A rejection nobody handled leaves no state half-changed (Node would exit; Zi goes on).
    if (kind === "rejection") return;
    this.log("zi: the exception is not an extension's: shutting down");
    this.end(1);
  }
}

function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0 || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once("drain", resolve);
    stream.once("close", resolve);
    stream.once("error", resolve);
  });
}
