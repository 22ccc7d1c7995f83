import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ChildStderrLog } from "../shared/child-stderr-log.js";
import { ProcessGroup } from "../shared/process-group.js";
import { MCP_LIMITS } from "./mcp-limits.js";

export interface ProcessStdioOptions {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
  /** One line of the server's stderr, for Zi's stderr. */
  logLine(line: string): void;
  /** How the log names the server (`MCP server github`). */
  name: string;
}

/**
 * The MCP stdio transport, with what the SDK's own lacks for an agent host: the server leads its own
 * process group (stopping it stops what it started, and Zi's exit sweep kills the group if Zi dies
 * first), its stderr is read line by line into Zi's stderr (never stdout, which is the protocol's),
 * bounded and rate-limited (ChildStderrLog), and kept as a tail for failure reasons, a line that is not JSON-RPC is skipped, and an endless line
 * kills the server instead of growing memory.
 */
export class ProcessStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** How the process ended (`exited with code 1`, `was killed by SIGKILL`), once it has. */
  exitReason: string | undefined;
  /** Lines on stdout that were not JSON-RPC. */
  garbageLines = 0;
  private child: ChildProcess | undefined;
  private group: ProcessGroup | undefined;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MCP_LIMITS.maxLineBytes });
  private readonly stderrLog: ChildStderrLog;
  private closed = false;

  constructor(private readonly options: ProcessStdioOptions) {
    this.stderrLog = new ChildStderrLog(options.name, (line) => options.logLine(line), MCP_LIMITS.stderrTailBytes);
  }

  /** The last bytes the server wrote to stderr. */
  get stderr(): string {
    return this.stderrLog.tail;
  }

  start(): Promise<void> {
    const { command, args, env, cwd } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        cwd,
        env: { ...getDefaultEnvironment(), ...env },
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
        shell: false,
      });
      this.child = child;
      child.once("error", (error) => {
        if (child.pid === undefined) return reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => {
        this.group = new ProcessGroup(child as ChildProcess & { pid: number });
        resolve();
      });
      child.stdin!.on("error", (error) => this.onerror?.(error));
      child.stdout!.on("data", (chunk: Buffer) => this.read(chunk));
      child.stderr!.on("data", (chunk: Buffer) => this.stderrLog.push(chunk));
      child.once("close", (code, signal) => {
        this.exitReason = signal ? `was killed by ${signal}` : `exited with code ${code ?? "unknown"}`;
        this.stderrLog.end();
        this.group?.settle();
        this.finish();
      });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || !stdin.writable) throw new Error("the server's process is not running");
    if (!stdin.write(serializeMessage(message))) await once(stdin, "drain");
  }

  /**
   * As the MCP specification says for stdio: close stdin, then SIGTERM, then SIGKILL, each after a grace
   * period. What the server started and left in its group gets SIGTERM once it is gone (and SIGKILL
   * from the exit sweep if it is still there when Zi exits).
   */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return this.finish();
    const exited = once(child, "close").then(() => true);
    const within = (ms: number) => Promise.race([exited, new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
    child.stdin?.end();
    if (!(await within(MCP_LIMITS.stopGraceMs))) {
      this.group?.signal("SIGTERM");
      if (!(await within(MCP_LIMITS.stopGraceMs))) {
        this.group?.signal("SIGKILL");
        await within(MCP_LIMITS.stopGraceMs);
      }
    }
    this.group?.signal("SIGTERM");
    this.group?.settle();
  }

  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch {
        this.garbageLines++;
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
