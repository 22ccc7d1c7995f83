import "reflect-metadata";
import { PassThrough } from "node:stream";
import { container } from "tsyringe";
import { EventMode } from "../../core/kernel/event-mode.js";
import { FrameWriter } from "../../core/kernel/frame-writer.js";
import { JsonlFramer } from "../../core/kernel/jsonl-framer.js";
import { EVENT_MODE } from "../../core/kernel/kernel-ports.js";
import type { MethodFamily } from "../../core/kernel/method-family.js";
import { MethodRegistry } from "../../core/kernel/method-registry.js";
import { RpcConnection } from "../../core/kernel/rpc-connection.js";
import { RPC_LIMITS, type RpcLimits } from "../../core/wire/limits.js";
import { RpcServer } from "../../core/kernel/rpc-server.js";
import { connectionFamily } from "../../methods/connection/connection.family.js";
import { FakeSessionPorts } from "./fake-session-ports.js";
import { MemorySink } from "./memory-sink.js";
import { testFamily } from "./test-family.js";

export interface HarnessOptions {
  limits?: Partial<RpcLimits>;
  families?: MethodFamily[];
  /** The deferred startup that `awaitsStartup` methods wait for; settled from the start when omitted. */
  startup?: Promise<void>;
}

/** The whole kernel over in-memory streams: write records to `input`, read frames from `sink`. */
export class KernelHarness {
  readonly input = new PassThrough();
  readonly sink = new MemorySink();
  readonly ports = new FakeSessionPorts();
  readonly logs: string[] = [];
  readonly limits: RpcLimits;
  readonly server: RpcServer;
  readonly writer: FrameWriter;
  private readonly registry: MethodRegistry;
  private readonly startup: Promise<void>;
  exit: Promise<number> | undefined;

  constructor(options: HarnessOptions = {}) {
    this.limits = { ...RPC_LIMITS, ...options.limits };
    this.startup = options.startup ?? Promise.resolve();
    const child = container.createChildContainer();
    const eventMode = new EventMode();
    child.registerInstance(EVENT_MODE, eventMode);
    this.registry = MethodRegistry.build(child, options.families ?? [connectionFamily, testFamily]);
    const log = (message: string) => this.logs.push(message);
    this.writer = new FrameWriter(
      this.sink,
      { maxPendingRecords: this.limits.maxPendingOutputRecords, maxPendingBytes: this.limits.maxPendingOutputBytes },
      () => void this.server.shutdown(0),
    );
    const connection = new RpcConnection({
      writer: this.writer,
      limits: this.limits,
      state: this.ports,
      events: this.ports,
      eventMode,
      log,
    });
    this.server = new RpcServer({
      input: this.input,
      framer: new JsonlFramer(this.limits.maxRecordBytes),
      writer: this.writer,
      connection,
      cancellation: this.ports,
      settlementMs: this.limits.settlementMs,
      log,
    });
  }

  start(): this {
    this.exit = this.server.start(Promise.resolve(this.registry), this.startup);
    return this;
  }

  send(...requests: (object | string)[]): void {
    this.input.write(requests.map((r) => (typeof r === "string" ? r : JSON.stringify(r)) + "\n").join(""));
  }

  request(id: string, method: string, params?: object): object {
    return params === undefined ? { version: 1, id, method } : { version: 1, id, method, params };
  }

  /** Frames after `ready`, once at least `count` of them are written. */
  async frames(count: number): Promise<any[]> {
    return (await this.sink.waitFor(count + 1)).slice(1);
  }
}
