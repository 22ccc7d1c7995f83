import { EventMode } from "../kernel/event-mode.js";
import type { MethodFamily } from "../kernel/method-family.js";
import type { MethodRegistry } from "../kernel/method-registry.js";
import { RpcError } from "../kernel/rpc-error.js";
import type { AgentSessionEvent } from "../wire/session-types.js";
import type { ZiMethods } from "../pi-rpc/zi-methods.js";
import type { SessionModule } from "./session-module.js";

/** A signal that never fires: in process, nobody gives up on a waiting call but its caller. */
const NEVER = new AbortController().signal;

/**
 * Zi's methods called in process: the registry RPC mode builds from the same families, each call's
 * params admitted by the same validator, `awaitsStartup` methods held until the deferred startup is
 * done. A front end (pi-RPC) speaks its own wire format over these calls.
 */
export class InProcessMethods implements ZiMethods {
  private sequence = 0;

  private constructor(
    private readonly registry: MethodRegistry,
    private readonly module: SessionModule,
    private readonly startup: Promise<void>,
  ) {}

  static async wire(module: SessionModule, families: readonly MethodFamily[], startup: Promise<void>): Promise<InProcessMethods> {
    const { MethodWiring } = await import("./method-wiring.js");
    const kernel = {
      eventMode: new EventMode(),
      state: { snapshot: () => module.session.getState() },
      events: { subscribe: (listener: (event: object) => void | Promise<void>) => module.events.subscribe(listener) },
      cancellation: { cancel: () => module.cancel() },
    };
    return new InProcessMethods(MethodWiring.wire(module, kernel, families), module, startup);
  }

  has(method: string): boolean {
    return this.registry.get(method) !== undefined;
  }

  async call<T>(method: string, params?: Record<string, unknown>): Promise<T> {
    const registered = this.registry.get(method);
    if (!registered) throw new RpcError("unknown_method", `unknown method ${method}`);
    const admitted = this.registry.params.admit(registered.params, params);
    if (registered.awaitsStartup) await this.startup;
    return (await registered.handler.handle(admitted, { id: `in-process-${++this.sequence}`, method, signal: NEVER })) as T;
  }

  onEvent(listener: (event: AgentSessionEvent) => void | Promise<void>): () => void {
    return this.module.events.subscribe(listener);
  }
}
