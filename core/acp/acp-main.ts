// Values come from the SDK's unstable entry only, as acp-agent.ts's do: its stable entry is a second
// copy of the v1 schemas, which zod builds when the module loads (~35 ms of CPU at start, measured).
import { MessageTooLargeError } from "@agentclientprotocol/sdk/unstable";
import type { OutputSink } from "../kernel/output-sink.js";
import { RPC_LIMITS } from "../wire/limits.js";
import { AcpAgent, type AcpAgentOptions } from "./acp-agent.js";
import { AcpWire } from "./acp-wire.js";
import { SHUTDOWN_BOUNDS, within, type ProcessShell } from "../shell/process-shell.js";

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
  constructor(
    private readonly options: Omit<AcpAgentOptions, "log" | "adopt">,
    private readonly io: AcpIo,
    private readonly shell: Pick<ProcessShell, "onShutdown" | "adopt">,
  ) {}

  async run(): Promise<number> {
    const agent = new AcpAgent({ ...this.options, log: this.io.log, adopt: (module) => this.shell.adopt(module) });
    // The same record bound as RPC mode: a longer line ends the connection, and Zi shuts down.
    const wire = new AcpWire(this.io.input, this.io.output, RPC_LIMITS.maxRecordBytes, (message) => agent.observe(message));
    const connection = agent.app().connect(wire.stream());
    agent.connection = connection.signal;
    let signalCode: number | undefined;
    // A signal, or an uncaught exception no session's extension can be named for (ProcessShell).
    const signalled = new Promise<void>((resolve) => {
      this.shell.onShutdown((code) => {
        signalCode ??= code;
        resolve();
      });
    });
    await Promise.race([connection.closed, signalled]);
    // Prompts still running are interrupted; with the connection open they can still answer.
    await within(agent.cancelAll(), SHUTDOWN_BOUNDS.settleMs);
    await within(wire.drained(), SHUTDOWN_BOUNDS.flushMs);
    connection.close();
    await within(agent.closeAll(), SHUTDOWN_BOUNDS.disposeMs);
    // An oversized record is fatal framing, as in RPC mode: exit 1.
    const framing = connection.signal.reason instanceof MessageTooLargeError;
    if (framing) this.io.log(`zi: ${(connection.signal.reason as Error).message}; shutting down`);
    return signalCode ?? (framing ? 1 : 0);
  }
}
