import type { FrameWriter } from "./frame-writer.js";
import type { MethodRegistry, RegisteredMethod } from "./method-registry.js";
import type { EventMode } from "./event-mode.js";
import type { EventStreamPort, StateSnapshotPort } from "./kernel-ports.js";
import type { RpcLimits } from "../wire/limits.js";
import { EnvelopeRejection, RequestEnvelope } from "./request-envelope.js";
import { RpcError } from "./rpc-error.js";
import { clipJson, standIn } from "./json-clip.js";
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
const EMPTY_RESULT: EncodedResult = { json: "{}", bytes: 2 };

interface InFlight {
  readonly method: string;
  readonly controller: AbortController | undefined;
  readonly slot: Slot;
  settled: boolean;
}

/**
 * One client connection: admission in input order, correlation, slots and event forwarding. It turns
 * records into frames and nothing else; reading stdin and process lifetime belong to RpcServer.
 */
export class RpcConnection {
  private readonly envelope: RequestEnvelope;
  private readonly slots: SlotPool;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly settledWaiters: (() => void)[] = [];
  private unsubscribe: (() => void) | undefined;
  private admitting = true;
  private readonly frozenJson = new WeakMap<object, EncodedResult>();
  /** The JSON of each method name answered so far (a handful of names, each a protocol constant). */
  private readonly methodJson = new Map<string, string>();
  private registry!: MethodRegistry;
  /** Pending until the deferred startup has finished; undefined after. */
  private startup: Promise<void> | undefined;

  constructor(private readonly deps: ConnectionDependencies) {
    this.envelope = new RequestEnvelope(deps.limits.maxRequestIdBytes, deps.limits.maxJsonDepth);
    this.slots = new SlotPool(deps.limits.maxInFlight, deps.limits.reservedInterrupts);
  }

  /** Writes `ready` (always sequence 1), then starts forwarding session events. */
  start(): void {
    const { limits, state, events } = this.deps;
    this.emit({ type: "ready", state: state.snapshot(), limits });
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
    const seen: { id: string | null } = { id: null };
    try {
      return this.admit(line, seen);
    } catch (error) {
      return this.notAdmitted(seen.id, error);
    }
  }

  private notAdmitted(id: string | null, error: unknown): void | Promise<void> {
    if (error instanceof RpcError && !error.isOperationError) return this.protocolError(id, error);
    this.deps.log(`zi: internal error while admitting a request: ${(error as Error)?.stack ?? String(error)}`);
    return this.protocolError(id, new RpcError("invalid_request", "the request could not be admitted"));
  }

  private admit(line: string, seen: { id: string | null }): void | Promise<void> {
    const request = this.envelope.parse(line);
    if (request instanceof EnvelopeRejection) return this.protocolError(request.id, request.error);
    seen.id = request.id;
    const method = this.registry.get(request.method);
    if (!method) return this.protocolError(request.id, new RpcError("unknown_method", "unknown method"));
    // The startup gate: the returned promise holds admission, so nothing after this record overtakes it.
    if (method.awaitsStartup && this.startup !== undefined) {
      return this.startup.then(
        () => this.admitHeld(request.id, request.params, method),
        () => undefined,
      );
    }
    return this.admitMethod(request.id, request.params, method);
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
    if (this.inFlight.has(id)) {
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
    return this.emit({ type: "protocol_error", id: null, error: errorBody(error, this.deps.limits), fatal: true });
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
    let methodJson = this.methodJson.get(method);
    if (methodJson === undefined) this.methodJson.set(method, (methodJson = JSON.stringify(method)));
    const head = `"type":"response","id":${JSON.stringify(id)},"method":${methodJson},"ok":true,"result":`;
    let encoded: EncodedResult;
    try {
      // A result JSON cannot encode (a BigInt, a cycle) is the handler's fault: a coded failure, not a crash.
      encoded = this.encodeResult(result);
    } catch (error) {
      return this.respondError(id, method, error);
    }
    const members = `${head}${encoded.json}}`;
    if (this.exceedsRecord(members)) {
      this.deps.log(`zi: the result of ${method} exceeds the output record bound`);
      return this.respondError(id, method, new RpcError("operation_failed", "result exceeds the output record bound"));
    }
    // The byte count from its parts: a snapshot's JSON is counted once, not once per response.
    return this.deps.writer.sendMembers(members, Buffer.byteLength(head) + (encoded.bytes ??= Buffer.byteLength(encoded.json)) + 1);
  }

  private respondError(id: string, method: string, error: unknown): void | Promise<void> {
    const known = this.asOperationError(error, method);
    return this.emit({
      type: "response",
      id,
      method,
      ok: false,
      error: { code: known.code, message: known.message, applied: known.applied },
    });
  }

  private protocolError(id: string | null, error: RpcError): void | Promise<void> {
    return this.emit({ type: "protocol_error", id, error: errorBody(error, this.deps.limits), fatal: false });
  }

  private readonly forwardEvent = (event: object): void | Promise<void> => {
    if (this.deps.eventMode.current === "none" || !this.deps.writer.writable) return;
    const body = JSON.stringify({ type: "session_event", event });
    if (this.exceedsRecord(body)) {
      const type = (event as { type?: unknown }).type;
      this.deps.log(`zi: a ${String(type)} event exceeds the output record bound; sent as a clipped stand-in`);
      return this.emit({ type: "session_event", event: standIn(event, Buffer.byteLength(body) - SESSION_EVENT_WRAPPER_BYTES, this.deps.limits.maxStandInBytes) });
    }
    return this.deps.writer.send(body);
  };

  /**
   * A frozen result is immutable by contract (the session hands out deep-frozen state snapshots), so
   * its JSON is computed once and reused for every response that carries the same object.
   */
  private encodeResult(result: unknown): EncodedResult {
    if (result === undefined || result === null) return EMPTY_RESULT;
    if (typeof result !== "object" || !Object.isFrozen(result)) return { json: JSON.stringify(result), bytes: undefined };
    let encoded = this.frozenJson.get(result);
    if (encoded === undefined) {
      encoded = { json: JSON.stringify(result), bytes: undefined };
      this.frozenJson.set(result, encoded);
    }
    return encoded;
  }

  private asOperationError(error: unknown, method: string): RpcError {
    if (error instanceof RpcError && error.isOperationError) return error;
    if (error instanceof RpcError) return new RpcError("operation_failed", error.message);
    this.deps.log(`zi: internal error in ${method}: ${(error as Error)?.stack ?? String(error)}`);
    return new RpcError("operation_failed", "internal error");
  }

  private exceedsRecord(body: string): boolean {
    const max = this.deps.limits.maxRecordBytes - 64;
    return body.length * 3 > max && Buffer.byteLength(body) > max;
  }

  private emit(frame: object): void | Promise<void> {
    return this.deps.writer.send(JSON.stringify(frame));
  }
}

/** A result's JSON and, once counted, its UTF-8 length. */
interface EncodedResult {
  readonly json: string;
  bytes: number | undefined;
}

/**
 * `details` is bounded by construction: at most maxErrorDetails entries and about maxErrorDetailsBytes
 * of JSON; a list cut short carries `detailsTruncated: true`.
 */
function errorBody(error: RpcError, limits: Pick<RpcLimits, "maxErrorDetails" | "maxErrorDetailsBytes">) {
  const { details } = error;
  if (details === undefined) return { code: error.code, message: error.message };
  if (!Array.isArray(details)) return { code: error.code, message: error.message, details };
  const shown: unknown[] = [];
  let bytes = 2;
  for (const detail of details) {
    if (shown.length >= limits.maxErrorDetails) break;
    const entry = clipJson(detail, limits.maxErrorDetailsBytes / 8);
    bytes += Buffer.byteLength(JSON.stringify(entry)) + 1;
    if (bytes > limits.maxErrorDetailsBytes) break;
    shown.push(entry);
  }
  return shown.length < details.length
    ? { code: error.code, message: error.message, details: shown, detailsTruncated: true }
    : { code: error.code, message: error.message, details: shown };
}

/** `{"type":"session_event","event":` and the closing brace around an event's JSON. */
const SESSION_EVENT_WRAPPER_BYTES = 33;

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}
