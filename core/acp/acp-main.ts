import { Readable } from "node:stream";
import { MessageTooLargeError, ndJsonStream } from "@agentclientprotocol/sdk";
import type { OutputSink } from "../kernel/output-sink.js";
import { RPC_LIMITS } from "../wire/limits.js";
import { AcpAgent, type AcpAgentOptions } from "./acp-agent.js";

const SIGNAL_EXIT_CODES: ReadonlyMap<NodeJS.Signals, number> = new Map([
  ["SIGHUP", 129],
  ["SIGINT", 130],
  ["SIGTERM", 143],
]);
/** The RPC mode's shutdown bounds (docs/protocol.md, Lifecycle): settle, flush, dispose. */
const SETTLE_MS = 5000;
const FLUSH_MS = 5000;
const DISPOSE_MS = 2000;

const within = (promise: Promise<unknown>, ms: number): Promise<unknown> =>
  Promise.race([promise.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ms).unref())]);

export interface AcpIo {
  input: NodeJS.ReadableStream;
  output: OutputSink;
  log: (message: string) => void;
}

/**
 * One process of `zi --mode acp`: the ACP agent on stdin/stdout until the editor closes stdin or a
 * signal arrives; then running prompts are interrupted (they answer `cancelled` while output still
 * flows), output is flushed and every session's journal is closed, each step bounded as in RPC mode.
 */
export class AcpMain {
  private pendingWrites = 0;
  private drainedWaiters: (() => void)[] = [];

  constructor(
    private readonly options: Omit<AcpAgentOptions, "log">,
    private readonly io: AcpIo,
  ) {}

  async run(): Promise<number> {
    const agent = new AcpAgent({ ...this.options, log: this.io.log });
    const input = Readable.toWeb(this.io.input as Readable) as ReadableStream<Uint8Array>;
    // The same record bound as RPC mode: a longer line ends the connection, and Zi shuts down.
    const connection = agent.app().connect(ndJsonStream(this.writable(), input, { maxMessageBytes: RPC_LIMITS.maxRecordBytes }));
    let signalCode: number | undefined;
    const signalled = new Promise<void>((resolve) => {
      for (const [signal, code] of SIGNAL_EXIT_CODES) {
        process.on(signal, () => {
          signalCode ??= code;
          resolve();
        });
      }
    });
    await Promise.race([connection.closed, signalled]);
    // Prompts still running are interrupted; with the connection open they can still answer.
    await within(agent.cancelAll(), SETTLE_MS);
    await within(this.drained(), FLUSH_MS);
    connection.close();
    await within(agent.closeAll(), DISPOSE_MS);
    // An oversized record is fatal framing, as in RPC mode: exit 1.
    const framing = connection.signal.reason instanceof MessageTooLargeError;
    if (framing) this.io.log(`zi: ${(connection.signal.reason as Error).message}; shutting down`);
    return signalCode ?? (framing ? 1 : 0);
  }

  /** stdout as a web stream whose writes complete once the bytes have left the process (backpressure). */
  private writable(): WritableStream<Uint8Array> {
    const decoder = new TextDecoder();
    return new WritableStream<Uint8Array>({
      write: (chunk) =>
        new Promise<void>((resolve, reject) => {
          this.pendingWrites++;
          this.io.output.write(decoder.decode(chunk), (error) => {
            if (--this.pendingWrites === 0) for (const wake of this.drainedWaiters.splice(0)) wake();
            if (error) reject(error);
            else resolve();
          });
        }),
    });
  }

  private drained(): Promise<void> {
    if (this.pendingWrites === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainedWaiters.push(resolve));
  }
}
