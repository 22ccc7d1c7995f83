import type { MethodRegistry, RegisteredMethod } from "../kernel/method-registry.js";
import { RpcError } from "../kernel/rpc-error.js";
import { SlotPool } from "../kernel/slot-pool.js";
import { RPC_LIMITS, type RpcLimits } from "../wire/limits.js";
import type { AgentSessionEvent } from "../wire/session-types.js";

/** A `{ params, result }` map by method name (zi/client's `ZiMethodMap`, or core/boot's `ZiMethods`). */
export type MethodMapShape = { [method: string]: { params: unknown; result: unknown } };

type ParamsArg<P> = undefined extends P ? [params?: P] : [params: P];

export interface MethodClientOptions {
  registry: MethodRegistry;
  /** The session's deferred startup (plugins, extensions): methods marked `awaitsStartup` wait for it. */
  startup: Promise<void>;
  events: { subscribe(listener: (event: AgentSessionEvent) => void | Promise<void>): () => void };
  log: (message: string) => void;
  /** The same bounds as RPC mode's connection (what `ready.limits` promises) when omitted. */
  limits?: RpcLimits;
}

const noop = (): void => undefined;
const NEVER_ABORTED = new AbortController().signal;
let nextId = 0;

/**
 * A front end's way into Zi without a wire: the same method registry an RPC connection serves (same
 * handlers, params validation, startup gate, in-flight slots and result bound), by method name, and the
 * session's typed event stream. Results come back as JSON would carry them (a copy, never an object the
 * session holds); failures as RpcError with the codes docs/protocol.md lists, an internal fault logged
 * and answered `operation_failed` "internal error", exactly as on the wire. Admission keeps RPC's order:
 * a call to an ordered method holds every later call until it has answered; concurrent methods do not.
 */
export class MethodClient<Methods extends MethodMapShape = MethodMapShape> {
  private readonly slots: SlotPool;
  private readonly limits: RpcLimits;
  /** Settles once every ordered call admitted so far has answered (RPC's admission order). */
  private admission: Promise<void> = Promise.resolve();

  constructor(private readonly options: MethodClientOptions) {
    this.limits = options.limits ?? RPC_LIMITS;
    this.slots = new SlotPool(this.limits.maxInFlight, this.limits.reservedInterrupts);
  }

  /** Calls `method` with `params`; resolves to its result or rejects with an RpcError. */
  call<M extends keyof Methods & string>(method: M, ...args: ParamsArg<Methods[M]["params"]>): Promise<Methods[M]["result"]> {
    return this.callRaw(method, args[0] as object | undefined) as Promise<Methods[M]["result"]>;
  }

  /** The session's events in source order; a listener's promise makes the producer wait (backpressure). */
  subscribe(listener: (event: AgentSessionEvent) => void | Promise<void>): () => void {
    return this.options.events.subscribe(listener);
  }

  /** The method names served (the registry's). */
  names(): string[] {
    return this.options.registry.names();
  }

  /** Untyped: for a method known only at run time (a plugin's). */
  async callRaw(name: string, params: object | undefined): Promise<unknown> {
    const method = this.options.registry.get(name);
    if (!method) throw new RpcError("unknown_method", "unknown method");
    // As JSON carries them: the handler sees no caller's object, prototype or function.
    const raw = params === undefined ? undefined : (this.copy(params, "params") as Record<string, unknown>);
    // The startup gate holds every later call, as it holds admission on the wire.
    const turn = this.admission.then(() => (method.awaitsStartup ? this.options.startup : undefined));
    let answered: (() => void) | undefined;
    if (!method.concurrent) this.admission = new Promise<void>((resolve) => (answered = resolve));
    else if (method.awaitsStartup) this.admission = turn.then(noop, noop);
    try {
      try {
        await turn;
      } catch {
        throw new RpcError("operation_failed", "Zi failed to start (see stderr)");
      }
      return await this.run(name, method, raw);
    } finally {
      answered?.();
    }
  }

  private async run(name: string, method: RegisteredMethod, raw: Record<string, unknown> | undefined): Promise<unknown> {
    const admitted = this.options.registry.params.admit(method.params, raw);
    const slot = this.slots.acquire(method.slot);
    if (slot === null) throw new RpcError("capacity", "too many operations in flight");
    try {
      const result = await method.handler.handle(admitted, { id: `in-process-${++nextId}`, method: name, signal: NEVER_ABORTED });
      return this.copy(result ?? {}, "result");
    } catch (error) {
      if (error instanceof RpcError) throw error;
      this.options.log(`zi: internal error in ${name}: ${(error as Error)?.stack ?? String(error)}`);
      throw new RpcError("operation_failed", "internal error");
    } finally {
      this.slots.release(slot);
    }
  }

  private copy(value: object, what: "params" | "result"): unknown {
    let json: string;
    try {
      json = JSON.stringify(value);
    } catch {
      throw what === "params" ? new RpcError("invalid_request", "params are not JSON") : new RpcError("operation_failed", "internal error");
    }
    if (json.length > this.limits.maxRecordBytes) {
      throw what === "params" ? new RpcError("invalid_request", "params exceed the record bound") : new RpcError("operation_failed", "result exceeds the output record bound");
    }
    return JSON.parse(json);
  }
}
