import type { Readable } from "node:stream";
import { FrameWriter } from "../kernel/frame-writer.js";
import { JsonlFramer } from "../kernel/jsonl-framer.js";
import type { MethodFamily } from "../kernel/method-family.js";
import type { MethodRegistry } from "../kernel/method-registry.js";
import type { OutputSink } from "../kernel/output-sink.js";
import { RpcConnection } from "../kernel/rpc-connection.js";
import { RPC_LIMITS, type RpcLimits } from "../wire/limits.js";
import { RpcServer } from "../kernel/rpc-server.js";
import type { SessionModule } from "./session-module.js";
import { kernelBindings, type KernelBindings } from "./kernel-bindings.js";

/**
 * The protocol's 1,024 pending records (docs/protocol.md) are a ceiling, not a target: Zi stops reading input (and holds its
 * event producers) at 128. Every pending frame, and the request behind it, survives V8's young-generation
 * collections and makes V8 grow its new space; measured on a 100k-request flood: peak RSS idle + 45 MiB
 * at 1,024, idle + 23 MiB at 128, with the same pipelined throughput (docs/performance.md).
 */
const PENDING_OUTPUT_RECORDS = 128;

/**
 * Resolves in the event loop's turn after the next: by then the requests queued while the methods were
 * being wired have been admitted and their answers flushed (the writer's end-of-turn flush is an
 * immediate queued in the turn they were answered). Started sooner, the deferred startup's synchronous
 * part (plugin activation, and on Node 22 and later the modules it imports, read and run within the
 * same turn) ran ahead of that flush and held the first response back (docs/performance.md).
 */
const afterNextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

/** What a wait on a failed wiring becomes: the server reports the failure and ends the process. */
const NEVER = new Promise<never>(() => undefined);

export interface RpcApplicationIo {
  input: Readable;
  output: OutputSink;
  log: (message: string) => void;
}

/** Loads the method families; a dynamic import, so that `ready` does not wait for them. */
export type FamilyLoader = () => Promise<readonly MethodFamily[]>;

/** Instances by injection token: string keys and symbol keys (`[SESSION]: fake`) alike. */
export type TokenInstances = { readonly [token: string | symbol]: unknown };

/** What only a test changes (zi/testing's `serveFamilies`); the `zi` command passes none. */
export interface RpcApplicationOptions {
  /** The connection's bounds; `RPC_LIMITS` (what `ready.limits` promises) when omitted. */
  limits?: RpcLimits;
  /**
   * Bound by token over what the composition binds, in the shared scope and in every family's own
   * scope after its `register` (as Nest's `overrideProvider`): a handler gets the override wherever
   * its token was bound.
   */
  overrides?: TokenInstances;
}

/**
 * The composition root of RPC mode. The kernel is built at once and writes `ready`; the DI container and
 * the method families load right after, and the first request is admitted once they are wired. The
 * module's deferred startup (plugins and extensions, whose `extension_error` events follow `ready`) runs
 * after that: only methods marked `awaitsStartup` wait for it (admission holds at them, in order).
 */
export class RpcApplication {
  readonly server: RpcServer;
  private readonly kernel: KernelBindings;
  private readonly log: (message: string) => void;

  constructor(
    private readonly module: SessionModule,
    private readonly loadFamilies: FamilyLoader,
    io: RpcApplicationIo,
    private readonly options: RpcApplicationOptions = {},
  ) {
    const limits = options.limits ?? RPC_LIMITS;
    this.kernel = kernelBindings(module);
    this.log = io.log;
    const { eventMode, state, events, cancellation } = this.kernel;
    const writer = new FrameWriter(
      io.output,
      { maxPendingRecords: Math.min(PENDING_OUTPUT_RECORDS, limits.maxPendingOutputRecords), maxPendingBytes: limits.maxPendingOutputBytes },
      () => void this.server.shutdown(0),
    );
    const connection = new RpcConnection({ writer, limits: { ...limits }, state, events, eventMode, log: io.log });
    this.server = new RpcServer({
      input: io.input,
      framer: new JsonlFramer(limits.maxRecordBytes),
      startupProbe: new JsonlFramer(limits.maxRecordBytes),
      writer,
      connection,
      cancellation,
      settlementMs: limits.settlementMs,
      log: io.log,
    });
  }

  run(): Promise<number> {
    let readyWritten!: () => void;
    const written = new Promise<void>((resolve) => (readyWritten = resolve));
    const wiring = this.wire();
    // The deferred startup begins once the method table is handed over, not beside its loading: the
    // plugins' activation imports the coding tools and delegation, and loaded side by side they delayed
    // the first response (docs/performance.md). A wiring failure is the server's to report, once: what
    // waits on it then never settles.
    const startup = Promise.all([written, wiring]).then(
      async ([, registry]) => {
        await afterNextTurn();
        // The first requests' own classes first, and their answers flushed (on Node 20 an import takes
        // a few turns of the event loop: begun two turns after the wiring, the startup ran ahead of the
        // first response).
        await registry.loadsSettled();
        await afterNextTurn();
        await this.module.afterReady();
      },
      () => NEVER,
    );
    // The check of every lazily listed method (imported, checked, resolved) comes after the startup, not
    // before it: a first prompt waits for the startup, and the check (~8 ms of CPU on Node 26: the
    // classes it imports, each handler resolved) ran ahead of its first delta. Each method is still
    // checked before its own first request is admitted, so no handler runs unchecked; a wrong wiring
    // still ends the process (the server reports the failure), once the plugins have been activated.
    const checked = Promise.all([startup, wiring]).then(
      async ([, registry]) => {
        // Two turns: the requests the startup released are admitted and answered first.
        await afterNextTurn();
        await registry.checkAll();
      },
      () => NEVER,
    );
    const exit = this.server.start(wiring, startup, checked);
    readyWritten();
    // After the check: a rehearsal admits the params of the methods loaded by then, every one of them.
    void wiring.then(
      (registry) => registry.rehearseAdmissionsAfter(checked, this.log),
      () => undefined,
    );
    return exit;
  }

  /**
   * The wiring (tsyringe) is imported after the families' loader has brought in the Reflect polyfill it
   * checks for on load, an order that must not depend on how a bundler orders its chunks.
   */
  private async wire(): Promise<MethodRegistry> {
    const loading = this.loadFamilies();
    const wiring = loading.then(() => import("./method-wiring.js"));
    const [families, { MethodWiring }] = await Promise.all([loading, wiring]);
    return MethodWiring.wire(this.module, this.kernel, families, this.options.overrides);
  }
}
