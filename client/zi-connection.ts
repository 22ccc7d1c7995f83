import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { AgentSessionEvent } from "../core/wire/session-types.js";
import type { ProtocolErrorFrame, ReadyFrame, ServerFrame } from "./protocol-types.js";
import { ZiRpcError } from "./zi-rpc-error.js";

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ZiConnectionOptions {
  /** close(): how long to wait for Zi's exit after closing stdin. Zi settles within 2 × 5 s. */
  closeTimeoutMs?: number;
  /** close(): after SIGTERM, how long to wait before SIGKILL. */
  killGraceMs?: number;
  /** A non-fatal protocol_error that names no pending request (Zi could not read its id). */
  onUnattributedError?: (frame: ProtocolErrorFrame) => void;
  /** Zi's stderr, as it arrives (diagnostics only; never protocol). */
  onStderr?: (text: string) => void;
  /** Every frame as it arrives, after the sequence check (a tap for logging and tests). */
  onFrame?: (frame: ServerFrame) => void;
}

export type EventListener = (event: AgentSessionEvent, sequence: number) => void;

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: ZiRpcError): void;
}

const STDERR_TAIL = 4000;

/**
 * One JSONL connection to a spawned Zi: frames are split on LF bytes, every `sequence` must follow
 * the last one (a gap means a lost frame and breaks the connection), `protocol_error` frames are routed
 * before response ids are matched, and responses settle their request by id. Untyped on purpose;
 * ZiClient adds the method types.
 */
export class ZiConnection {
  readonly ready: Promise<ReadyFrame>;
  readonly exited: Promise<ExitStatus>;
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<EventListener>();
  private readonly endListeners = new Set<(error: ZiRpcError | undefined) => void>();
  private readonly idPrefix = `r${Date.now().toString(36)}-`;
  private nextId = 1;
  private sequence = 0;
  private tail: Buffer[] = [];
  private stderrTail = "";
  private closing = false;
  /** A fatal protocol_error: nothing more is sent, but Zi still answers what it admitted. */
  private fatal: ZiRpcError | undefined;
  /** The connection is over: every pending and later request fails with this. */
  private broken: ZiRpcError | undefined;
  private endError: ZiRpcError | undefined;
  private settleReady!: { resolve(frame: ReadyFrame): void; reject(error: ZiRpcError): void };

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    private readonly options: ZiConnectionOptions = {},
  ) {
    this.ready = new Promise((resolve, reject) => (this.settleReady = { resolve, reject }));
    this.ready.catch(() => {}); // reported through whoever awaits it
    child.stdout.on("data", (chunk: Buffer) => this.onStdout(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
      options.onStderr?.(text);
    });
    child.stdin.on("error", () => {}); // EPIPE: the exit below reports it
    this.exited = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
    void this.exited.then(({ code, signal }) => {
      const how = signal ? `signal ${signal}` : `code ${code}`;
      const detail = this.closing ? "" : `: ${this.stderrTail.trim()}`;
      this.fail(new ZiRpcError("connection_closed", `zi exited with ${how}${detail}`, "unknown", "connection"), this.closing && !this.fatal);
    });
  }

  /** The last ~4 KB Zi wrote to stderr, for error reports. */
  get stderr(): string {
    return this.stderrTail;
  }

  get isOpen(): boolean {
    return this.broken === undefined && this.fatal === undefined && !this.closing;
  }

  /** Sends one request with a fresh id; resolves with `result` or rejects with ZiRpcError. */
  request(method: string, params?: object): Promise<unknown> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.fatal) return Promise.reject(this.fatal);
    if (this.closing) return Promise.reject(new ZiRpcError("connection_closed", "the client is closing", "no", "client", undefined, method));
    // A fresh id per request: ids never collide in flight, so an id on a protocol_error is unambiguous.
    const id = `${this.idPrefix}${this.nextId++}`;
    const record = params === undefined ? { version: 1, id, method } : { version: 1, id, method, params };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      this.child.stdin.write(`${JSON.stringify(record)}\n`);
    });
  }

  /** Session events in source order, with their frame sequence; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Called once when the connection ends: without an error after a clean close, else with it. */
  onEnd(listener: (error: ZiRpcError | undefined) => void): () => void {
    if (this.broken) {
      listener(this.endError);
      return () => {};
    }
    this.endListeners.add(listener);
    return () => void this.endListeners.delete(listener);
  }

  /**
   * Closes stdin (Zi's disconnect: it interrupts work, answers what is pending, exits 0), waits for the
   * exit, then SIGTERM and, after the grace, SIGKILL. Resolves with the exit status.
   */
  async close(): Promise<ExitStatus> {
    this.closing = true;
    this.child.stdin.end();
    const timeout = Symbol("timeout");
    const bound = (ms: number) => new Promise<typeof timeout>((resolve) => setTimeout(resolve, ms, timeout).unref());
    if ((await Promise.race([this.exited, bound(this.options.closeTimeoutMs ?? 12_000)])) === timeout) {
      this.child.kill("SIGTERM");
      if ((await Promise.race([this.exited, bound(this.options.killGraceMs ?? 2000)])) === timeout) this.child.kill("SIGKILL");
    }
    return this.exited;
  }

  private onStdout(chunk: Buffer): void {
    // Collect a partial record as chunks and join once its LF arrives: linear in the record's size.
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10)) {
      const line = this.tail.length === 0 ? chunk.subarray(0, nl) : Buffer.concat([...this.tail, chunk.subarray(0, nl)]);
      this.tail = [];
      chunk = chunk.subarray(nl + 1);
      if (this.broken) return;
      this.onLine(line.toString("utf8"));
    }
    if (chunk.length > 0) this.tail.push(chunk);
  }

  private onLine(line: string): void {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(line) as ServerFrame;
    } catch {
      return this.violation("stdout carried a line that is not JSON");
    }
    if (frame === null || typeof frame !== "object" || frame.version !== 1) return this.violation("a frame without version 1");
    if (frame.sequence !== this.sequence + 1) return this.violation(`frame sequence ${frame.sequence} after ${this.sequence}: a frame was lost`);
    this.sequence = frame.sequence;
    this.options.onFrame?.(frame);
    switch (frame.type) {
      case "ready":
        if (frame.sequence !== 1) return this.violation("ready after the first frame");
        return this.settleReady.resolve(frame);
      case "protocol_error":
        return this.onProtocolError(frame);
      case "response": {
        const pending = this.pending.get(frame.id);
        if (!pending) return this.violation(`a response for an id that is not pending`);
        this.pending.delete(frame.id);
        if (frame.ok) return pending.resolve(frame.result);
        const { code, message, applied } = frame.error;
        return pending.reject(new ZiRpcError(code, message, applied, "response", undefined, pending.method));
      }
      case "session_event":
        for (const listener of this.listeners) listener(frame.event, frame.sequence);
        return;
      default:
        return this.violation(`unknown frame type ${(frame as { type: unknown }).type}`);
    }
  }

  /** Before any response matching: a protocol_error answers the request it names, and nothing else. */
  private onProtocolError(frame: ProtocolErrorFrame): void {
    const pending = frame.id === null ? undefined : this.pending.get(frame.id);
    const error = new ZiRpcError(frame.error.code, frame.error.message, "no", "protocol_error", frame.error.details, pending?.method);
    if (pending) {
      this.pending.delete(frame.id!);
      pending.reject(error);
    } else if (!frame.fatal) {
      this.options.onUnattributedError?.(frame);
    }
    if (frame.fatal) {
      // invalid_framing: Zi takes its shutdown path and still answers what it admitted; stop sending.
      this.fatal ??= error;
      this.child.stdin.end();
    }
  }

  private violation(message: string): void {
    this.fail(new ZiRpcError("protocol_violation", message, "unknown", "connection"));
    this.child.kill("SIGTERM");
  }

  /**
   * The end: every pending and later request fails with `error`. Event iterators end, cleanly after
   * close(), else with the first fatal protocol_error or with `error`.
   */
  private fail(error: ZiRpcError, clean = false): void {
    if (this.broken) return;
    this.broken = error;
    this.endError = clean ? undefined : (this.fatal ?? error);
    this.settleReady.reject(error);
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    for (const listener of this.endListeners) listener(this.endError);
    this.endListeners.clear();
  }
}
