import type { FrameWriter } from "./frame-writer.js";
import type { MethodRegistry, RegisteredMethod } from "./method-registry.js";
import type { EventMode } from "./event-mode.js";
import type { EventStreamPort, StateSnapshotPort } from "./kernel-ports.js";
import type { RpcLimits } from "../wire/limits.js";
import { EnvelopeRejection, EnvelopeReader } from "./envelope-reader.js";
import { RpcError } from "./rpc-error.js";
import { FrameEncoder } from "./frame-encoder.js";
import { ResponseBytes } from "./response-bytes.js";
import { SlotPool, type Slot } from "./slot-pool.js";

export interface ConnectionDependencies {
  writer: FrameWriter;
  limits: RpcLimits;
  state: StateSnapshotPort;
  events: EventStreamPort;
  eventMode: EventMode;
  log: (message: string) => void;
}

const NEVER_ABORTED = new AbortController().signal;

interface InFlight {
  readonly method: string;
  readonly controller: AbortController | undefined;
  readonly slot: Slot;
  settled: boolean;
}

/**
 * One client connection: admission in input order, correlation, slots and event forwarding. It turns
 * records into frames (encoded by FrameEncoder) and nothing else; reading stdin and process lifetime
 * belong to RpcServer.
 */
export class RpcConnection {
  private readonly envelope: EnvelopeReader;
  private readonly slots: SlotPool;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly settledWaiters: (() => void)[] = [];
  private unsubscribe: (() => void) | undefined;
  private admitting = true;
  private readonly encoder: FrameEncoder;
  private registry!: MethodRegistry;
  /** The id of the record being admitted, once read: what a failure to admit it is reported under. */
  private admittingId: string | null = null;
  /** True while a record waits at the startup gate (not yet admitted). */
  heldAtGate = false;
  /** Pending until the deferred startup has finished; undefined after. */
  private startup: Promise<void> | undefined;

  constructor(private readonly deps: ConnectionDependencies) {
    this.envelope = new EnvelopeReader(deps.limits.maxRequestIdBytes, deps.limits.maxJsonDepth);
    this.slots = new SlotPool(deps.limits.maxInFlight, deps.limits.reservedInterrupts);
    this.encoder = new FrameEncoder(deps.limits);
  }

  /** Writes `ready` (always sequence 1), then starts forwarding session events. */
  start(): void {
    const { limits, state, events } = this.deps;
    this.deps.writer.send(this.encoder.frame({ type: "ready", state: state.snapshot(), limits }));
    this.unsubscribe = events.subscribe(this.forwardEvent);
  }

  /**
   * Methods are wired after `ready` is written: `ready` needs only the session, and loading every
   * family (class-validator above all) would double the time to `ready`. RpcServer admits nothing
   * until this has been called. `startup` is the deferred startup that methods marked `awaitsStartup`
   * wait for (see RpcMethodOptions).
   */
  useRegistry(registry: MethodRegistry, startup: Promise<void>): void {
    this.registry = registry;
    this.startup = startup;
    // Once settled the gate is gone: no promise per request. A failed startup is the server's to report
    // (it shuts down); records held at the gate are then dropped like any queued input.
    startup.then(
      () => (this.startup = undefined),
      () => undefined,
    );
  }

  /**
   * Admits one record. A returned promise means: admit nothing else until it resolves. Whatever a record
   * makes fail unexpectedly (a validator, a transformer) is a fault of Zi, not of the client: it is
   * logged with its stack and answered with a coded frame, and the connection goes on.
   */
  handleRecord(line: string): void | Promise<void> {
    if (!this.admitting || line.length === 0) return;
    this.admittingId = null;
    try {
      return this.admit(line);
    } catch (error) {
      return this.notAdmitted(this.admittingId, error);
    }
  }

  private notAdmitted(id: string | null, error: unknown): void | Promise<void> {
    if (error instanceof RpcError && !error.isOperationError) return this.protocolError(id, error);
    this.deps.log(`zi: internal error while admitting a request: ${(error as Error)?.stack ?? String(error)}`);
    return this.protocolError(id, new RpcError("invalid_request", "the request could not be admitted"));
  }

  private admit(line: string): void | Promise<void> {
    const request = this.envelope.parse(line);
    if (request instanceof EnvelopeRejection) return this.protocolError(request.id, request.error);
    this.admittingId = request.id;
    const method = this.registry.get(request.method);
    if (!method) {
      const loading = this.registry.load(request.method);
      if (!loading) return this.protocolError(request.id, new RpcError("unknown_method", "unknown method"));
      // A method listed lazily, before its first request: admission holds while its class is imported
      // and checked, so nothing after this record overtakes it. A failed check ends the process (the
      // composition root's checkAll reports it); the record stays held until then. One that awaits the
      // startup is held at the startup gate from now on, as it would be with its class loaded.
      if (this.startup !== undefined && this.registry.awaitsStartup(request.method)) this.heldAtGate = true;
      return loading.then(
        (loaded) => {
          this.heldAtGate = false;
          if (!this.admitting) return;
          try {
            return this.gate(request.id, request.params, loaded);
          } catch (error) {
            return this.notAdmitted(request.id, error);
          }
        },
        () => new Promise<void>(() => undefined),
      );
    }
    return this.gate(request.id, request.params, method);
  }

  private gate(id: string, params: Record<string, unknown> | undefined, method: RegisteredMethod): void | Promise<void> {
    // The startup gate: the returned promise holds admission, so nothing after this record overtakes it.
    if (method.awaitsStartup && this.startup !== undefined) {
      this.heldAtGate = true;
      return this.startup.then(
        () => {
          this.heldAtGate = false;
          return this.admitHeld(id, params, method);
        },
        () => undefined,
      );
    }
    return this.admitMethod(id, params, method);
  }

  /** A record held at the startup gate; a shutdown meanwhile discards it like any queued input. */
  private admitHeld(id: string, rawParams: Record<string, unknown> | undefined, method: RegisteredMethod): void | Promise<void> {
    if (!this.admitting) return;
    try {
      return this.admitMethod(id, rawParams, method);
    } catch (error) {
      return this.notAdmitted(id, error);
    }
  }

  private admitMethod(id: string, rawParams: Record<string, unknown> | undefined, method: RegisteredMethod): void | Promise<void> {
    if (this.inFlight.size > 0 && this.inFlight.has(id)) {
      return this.protocolError(id, new RpcError("invalid_request", "request id is already in flight"));
    }
    const params = this.registry.params.admit(method.params, rawParams);
    const slot = this.slots.acquire(method.slot);
    if (slot === null) {
      return this.respondError(id, method.name, new RpcError("capacity", "too many operations in flight"));
    }
    return this.launch(id, method, params, slot);
  }

  /** The fatal framing path: exactly one protocol_error with fatal true, then nothing is admitted. */
  fatal(error: RpcError): void | Promise<void> {
    this.admitting = false;
    return this.deps.writer.send(this.encoder.protocolError(null, error, true));
  }

  /** Stops admission; records that arrive later are discarded. */
  stopAdmitting(): void {
    this.admitting = false;
  }

  /** Resolves when every admitted operation has settled. */
  settled(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /** Past the settlement bound: every unsettled operation gets its one response, `operation_failed`. */
  abandonUnsettled(): void {
    for (const [id, entry] of this.inFlight) {
      entry.controller?.abort();
      this.finish(id, entry, () =>
        this.respondError(id, entry.method, new RpcError("operation_failed", "the connection closed before the operation settled")),
      );
    }
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private launch(id: string, method: RegisteredMethod, params: object, slot: Slot): void | Promise<void> {
    // Only a concurrent handler can outlive admission long enough to be abandoned; ordered handlers share
    // a signal that never fires, which keeps an AbortController off the hot path of every request.
    const controller = method.concurrent ? new AbortController() : undefined;
    let result: unknown;
    try {
      result = method.handler.handle(params, { id, method: method.name, signal: controller?.signal ?? NEVER_ABORTED });
    } catch (error) {
      this.slots.release(slot);
      // A handler that refuses its params before doing anything throws invalid_request synchronously: a params problem, applied: no.
      if (error instanceof RpcError && error.code === "invalid_request") return this.protocolError(id, error);
      return this.respondError(id, method.name, error);
    }
    if (!isPromiseLike(result)) {
      this.slots.release(slot);
      return this.respond(id, method.name, result);
    }
    const entry: InFlight = { method: method.name, controller, slot, settled: false };
    this.inFlight.set(id, entry);
    const done = Promise.resolve(result).then(
      (value) => this.finish(id, entry, () => this.respond(id, method.name, value)),
      (error) => this.finish(id, entry, () => this.respondError(id, method.name, error)),
    );
    // An ordered method holds admission until its response is out; a concurrent one lets the next in.
    return method.concurrent ? undefined : done;
  }

  private finish(id: string, entry: InFlight, respond: () => void | Promise<void>): void | Promise<void> {
    if (entry.settled) return;
    entry.settled = true;
    // The id becomes reusable only once its response is in the output lane.
    const written = respond();
    const release = () => {
      this.inFlight.delete(id);
      this.slots.release(entry.slot);
      if (this.inFlight.size === 0) for (const wake of this.settledWaiters.splice(0)) wake();
    };
    if (written) return written.then(release);
    release();
  }

  private respond(id: string, method: string, result: unknown): void | Promise<void> {
    let frame;
    try {
      // A result JSON cannot encode (a BigInt, a cycle) is the handler's fault: a coded failure, not a crash.
      frame = this.encoder.okResponse(id, method, result);
    } catch (error) {
      return this.respondError(id, method, error);
    }
    if (frame === undefined) {
      this.deps.log(`zi: the result of ${method} exceeds the output record bound`);
      return this.respondError(id, method, new RpcError("operation_failed", "result exceeds the output record bound"));
    }
    if (frame instanceof ResponseBytes) return this.deps.writer.sendResponse(frame);
    return this.deps.writer.sendMembers(frame.members, frame.bytes);
  }

  private respondError(id: string, method: string, error: unknown): void | Promise<void> {
    return this.deps.writer.send(this.encoder.errorResponse(id, method, this.asOperationError(error, method)));
  }

  private protocolError(id: string | null, error: RpcError): void | Promise<void> {
    return this.deps.writer.send(this.encoder.protocolError(id, error));
  }

  private readonly forwardEvent = (event: object): void | Promise<void> => {
    if (this.deps.eventMode.current === "none" || !this.deps.writer.writable) return;
    const { body, clipped } = this.encoder.sessionEvent(event);
    if (clipped) this.deps.log(`zi: a ${String((event as { type?: unknown }).type)} event exceeds the output record bound; sent as a clipped stand-in`);
    return this.deps.writer.send(body);
  };

  private asOperationError(error: unknown, method: string): RpcError {
    if (error instanceof RpcError && error.isOperationError) return error;
    if (error instanceof RpcError) return new RpcError("operation_failed", error.message);
    this.deps.log(`zi: internal error in ${method}: ${(error as Error)?.stack ?? String(error)}`);
    return new RpcError("operation_failed", "internal error");
  }

}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}
