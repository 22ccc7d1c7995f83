import { PassThrough } from "node:stream";
import { RpcApplication, type FamilyLoader } from "../boot/rpc-application.js";
import type { SessionModule } from "../boot/session-module.js";
import type { AgentSessionEvent } from "../wire/session-types.js";
import { SessionCallError, type SessionClient } from "./session-client.js";

interface Pending {
  resolve(result: unknown): void;
  reject(error: SessionCallError): void;
}

/**
 * A connection to Zi's own RPC application in this process: requests go in as JSONL records and
 * frames come back through the same framing, admission, bounds and handlers as `zi --mode rpc`, only
 * over in-memory streams instead of stdin/stdout.
 */
export class InProcessClient implements SessionClient {
  readonly ready: Promise<{ state: any; limits: any }>;
  readonly exit: Promise<number>;
  private readonly input = new PassThrough();
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(event: AgentSessionEvent) => void>();
  private nextId = 1;
  private tail = "";
  private settleReady!: (frame: { state: any; limits: any }) => void;

  constructor(module: SessionModule, loadFamilies: FamilyLoader, log: (message: string) => void) {
    this.ready = new Promise((resolve) => (this.settleReady = resolve));
    const app = new RpcApplication(module, loadFamilies, {
      input: this.input,
      output: { write: (data, done) => (this.onOutput(data), setImmediate(done)) },
      log,
    });
    this.exit = app.run();
    void this.exit.then(() => {
      for (const waiter of this.pending.values()) waiter.reject(new SessionCallError("connection_closed", "the session has ended"));
      this.pending.clear();
    });
  }

  call<T = any>(method: string, params?: object): Promise<T> {
    const id = `i${this.nextId++}`;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.input.write(`${JSON.stringify(params === undefined ? { version: 1, id, method } : { version: 1, id, method, params })}\n`);
    });
  }

  onEvent(listener: (event: AgentSessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<number> {
    this.input.end();
    return this.exit;
  }

  /** Frames arrive in batches of whole records; split on LF bytes only (never U+2028). */
  private onOutput(data: string): void {
    const records = (this.tail + data).split("\n");
    this.tail = records.pop() ?? "";
    for (const record of records) if (record !== "") this.onFrame(JSON.parse(record));
  }

  private onFrame(frame: any): void {
    if (frame.type === "ready") return this.settleReady({ state: frame.state, limits: frame.limits });
    if (frame.type === "session_event") {
      for (const listener of this.listeners) listener(frame.event as AgentSessionEvent);
      return;
    }
    if ((frame.type === "response" || frame.type === "protocol_error") && typeof frame.id === "string") {
      const waiter = this.pending.get(frame.id);
      if (!waiter) return;
      this.pending.delete(frame.id);
      if (frame.type === "response" && frame.ok) waiter.resolve(frame.result);
      else waiter.reject(new SessionCallError(frame.error?.code ?? "operation_failed", frame.error?.message ?? "request failed"));
    }
  }
}
