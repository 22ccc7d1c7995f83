import type { Readable } from "node:stream";
import type { FrameWriter } from "./frame-writer.js";
import type { JsonlFramer } from "./jsonl-framer.js";
import type { CancellationPort } from "./kernel-ports.js";
import type { MethodRegistry } from "./method-registry.js";
import type { RpcConnection } from "./rpc-connection.js";
import { RpcError } from "./rpc-error.js";

const MAX_QUEUED_INPUT_BYTES = 256 * 1024;

export interface ServerDependencies {
  input: Readable;
  framer: JsonlFramer;
  /**
   * A second framer that checks input as it arrives while Zi is starting (docs/protocol.md, Startup):
   * admission may be held for the extensions, and invalid framing must not wait for them.
   */
  startupProbe?: JsonlFramer;
  writer: FrameWriter;
  connection: RpcConnection;
  cancellation: CancellationPort;
  settlementMs: number;
  log: (message: string) => void;
}

/**
 * Reads records from the input in order and owns the one shutdown path shared by a closed stdin, a
 * fatal framing error, a broken stdout and the signals: stop admitting, discard queued input, interrupt,
 * wait boundedly for settlement, answer whatever is still unsettled, flush, and report the exit code.
 */
export class RpcServer {
  private ended = false;
  private stalled = false;
  /** Records handed to the connection: the progress the end-of-input watchdog looks for. */
  private admitted = 0;
  /** False until the method registry is wired. */
  private wired = false;
  /** False until the deferred startup has finished (extensions load meanwhile, each within its own limit). */
  private started = false;
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private stopping: Promise<number> | undefined;
  /** Invalid framing the startup probe found ahead of the real framer. */
  private probeError: RpcError | undefined;
  private resolveExit!: (code: number) => void;
  readonly exitCode: Promise<number> = new Promise((resolve) => (this.resolveExit = resolve));

  constructor(private readonly deps: ServerDependencies) {}

  /**
   * Writes `ready` at once, then admits nothing until the method registry is wired; input that arrives
   * meanwhile is queued. `startup` is the deferred startup that methods marked `awaitsStartup` wait
   * for; the others do not. `checked` is the check of the methods the registry loads lazily
   * (`MethodRegistry.checkAll`), which may settle after the first requests are answered. A wiring,
   * check or startup failure is logged and ends the process with exit code 1.
   */
  start(registry: Promise<MethodRegistry>, startup: Promise<void>, checked: Promise<void> = Promise.resolve()): Promise<number> {
    const { input, connection, writer } = this.deps;
    connection.start();
    // `ready` leaves now, not at the end of this turn: on Node 22 the dynamic imports of the wiring can
    // complete within the same turn (modules read synchronously), and `ready` would wait for them.
    writer.flushNow();
    this.stallUntil(
      registry.then(
        (wired) => {
          connection.useRegistry(wired, startup);
          this.wired = true;
        },
        (error) => {
          this.deps.log(`zi: cannot wire methods: ${(error as Error).message}`);
          void this.shutdown(1);
        },
      ),
    );
    checked.catch((error) => {
      this.deps.log(`zi: cannot wire methods: ${(error as Error).message}`);
      void this.shutdown(1);
    });
    startup.then(
      () => {
        this.started = true;
        this.deps.startupProbe?.discard();
      },
      (error) => {
        this.deps.log(`zi: startup failed: ${(error as Error)?.stack ?? String(error)}`);
        void this.shutdown(1);
      },
    );
    input.on("data", this.onData);
    input.on("end", this.onEnd);
    input.on("error", (error) => {
      this.deps.log(`zi: stdin error: ${error.message}`);
      void this.shutdown(0);
    });
    return this.exitCode;
  }

  /** Idempotent: the first caller's exit code wins. */
  shutdown(code: number): Promise<number> {
    this.stopping ??= this.stop(code);
    return this.stopping;
  }

  /**
   * Input keeps being read into a small queue while admission is stalled, so that a client closing stdin
   * is noticed even then (and its queued input discarded, as the protocol says); past the queue bound
   * reading pauses and the pipe pushes back on the client.
   */
  private readonly onData = (chunk: Buffer): void => {
    if (this.stopping) return;
    if (!this.stalled && this.queue.length === 0) {
      // Not stalled, the framer has taken all it had: the chunk goes to it without queueing.
      this.deps.framer.push(chunk);
      this.pump();
    } else {
      this.queue.push(chunk);
      this.queuedBytes += chunk.length;
      if (this.queuedBytes > MAX_QUEUED_INPUT_BYTES) this.deps.input.pause();
      if (!this.stalled) this.pump();
    }
    if (!this.started && !this.stopping) this.probe(chunk);
  };

  /**
   * While starting, the probe frames every chunk as it arrives (the same bytes, in the same order, as
   * the real framer will). Invalid framing behind a request held at the startup gate ends Zi now, and
   * the held request, not yet admitted, is discarded with the rest of the input; anywhere else the
   * real framer reaches it soon, in input order, and records before it are admitted first.
   */
  private probe(chunk: Buffer): void {
    const probe = this.deps.startupProbe;
    if (!probe || this.probeError) return;
    try {
      probe.push(chunk);
      while (probe.next() !== null);
    } catch (error) {
      this.probeError = error as RpcError;
      this.fatalIfHeld();
    }
  }

  private fatalIfHeld(): void {
    if (this.probeError && !this.started && this.deps.connection.heldAtGate) void this.fatal(this.probeError);
  }

  /**
   * End of input. Records already received are still admitted in order, as long as admission makes
   * progress; a stall that makes none for the settlement bound (a handler that never answers, a client
   * that closed stdin and does not read) ends the wait, and what is still queued is discarded. Until
   * the methods are wired nothing can be admitted, and until the deferred startup has finished
   * (extensions loading) a request that awaits it cannot be: neither wait is a stall.
   */
  private readonly onEnd = (): void => {
    this.ended = true;
    if (this.stopping) return;
    if (!this.stalled) {
      this.finishInput();
      return;
    }
    let seen = this.admitted;
    const watchdog = setInterval(() => {
      if (this.stopping) clearInterval(watchdog);
      // Loading extensions is progress: records piped before EOF wait for it, then are all admitted.
      else if (this.wired && this.started && this.admitted === seen) void this.shutdown(0);
      else seen = this.admitted;
    }, this.deps.settlementMs);
    watchdog.unref();
  };

  private finishInput(): void {
    let last: string | null;
    try {
      last = this.deps.framer.finish();
    } catch (error) {
      void this.fatal(error as RpcError);
      return;
    }
    const admitted = last === null ? undefined : this.deps.connection.handleRecord(last);
    if (admitted) void admitted.then(() => this.shutdown(0));
    else void this.shutdown(0);
  }

  /**
   * Admits buffered records until input runs out, output is full, or an ordered handler is pending.
   * The writer is held meanwhile: what this admits is flushed once, not scheduled frame by frame.
   */
  private pump(): void {
    const { writer } = this.deps;
    writer.hold();
    try {
      this.admitQueued();
    } finally {
      writer.release();
    }
  }

  private admitQueued(): void {
    const { framer, writer, connection, input } = this.deps;
    this.stalled = false;
    for (;;) {
      if (this.stopping) return;
      if (writer.full) {
        this.stallUntil(writer.whenNotFull());
        return;
      }
      let line: string | null;
      try {
        line = framer.next();
      } catch (error) {
        void this.fatal(error as RpcError);
        return;
      }
      if (line === null) {
        const chunk = this.queue.shift();
        if (chunk === undefined) {
          writer.flushNow();
          if (this.ended) this.finishInput();
          else if (input.isPaused()) input.resume();
          return;
        }
        this.queuedBytes -= chunk.length;
        framer.push(chunk);
        continue;
      }
      this.admitted++;
      const admitted = connection.handleRecord(line);
      if (admitted) {
        // What was answered before it leaves now: the pending handler may hold the thread before the
        // end-of-turn flush (a module import runs in the same turn on Node 22 and later).
        writer.flushNow();
        this.stallUntil(admitted);
        this.fatalIfHeld();
        return;
      }
    }
  }

  private stallUntil(ready: Promise<void>): void {
    this.stalled = true;
    void ready.then(() => this.pump());
  }

  private async fatal(error: RpcError): Promise<void> {
    if (this.stopping) return;
    this.deps.connection.stopAdmitting();
    // Queued, not awaited: with a reader that does not read, the frame may never leave, and the
    // shutdown's flush bound must still apply.
    void this.deps.connection.fatal(error);
    await this.shutdown(1);
  }

  private async stop(code: number): Promise<number> {
    const { input, framer, writer, connection, cancellation, settlementMs } = this.deps;
    connection.stopAdmitting();
    framer.discard();
    this.queue.length = 0;
    input.off("data", this.onData);
    input.pause();
    const deadline = Date.now() + settlementMs;
    await withDeadline(
      cancellation.cancel().catch((error) => this.deps.log(`zi: cancellation failed: ${(error as Error).stack ?? error}`)),
      deadline,
    );
    await withDeadline(connection.settled(), deadline);
    connection.abandonUnsettled();
    connection.detach();
    // Frames queued before exit must reach the reader, but a reader that never reads cannot hold Zi forever.
    await withDeadline(writer.drained(), Date.now() + settlementMs);
    writer.abandon();
    this.resolveExit(code);
    return code;
  }
}

async function withDeadline(work: Promise<unknown>, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
  await Promise.race([work, timeout]);
  clearTimeout(timer);
}
