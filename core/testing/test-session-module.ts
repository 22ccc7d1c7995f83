import type { SessionModule } from "../boot/session-module.js";
import type { CommandPort } from "../ports/commands.port.js";
import type { ModelPort } from "../ports/model.port.js";
import type { SessionPort } from "../ports/session.port.js";
import type { SessionsPort } from "../ports/sessions.port.js";
import type { ThinkingPort } from "../ports/thinking.port.js";
import type { AgentSessionEvent, SessionEventListener } from "../wire/session-types.js";

/** A port nobody gave: any call fails the test, naming the port and the call. */
function absent<T extends object>(port: string, own: Partial<T> = {}): T {
  return new Proxy(own as T, {
    get(target, key) {
      if (key in target || typeof key === "symbol" || key === "then") return (target as Record<PropertyKey, unknown>)[key];
      return () => {
        throw new Error(`zi/testing: ${port}.${key}() was called, but no ${port} was given (pass it in overrides)`);
      };
    },
  });
}

export interface TestSessionOptions {
  session?: SessionPort;
  sessions?: SessionsPort;
  models?: ModelPort;
  thinking?: ThinkingPort;
  commands?: CommandPort;
  /** `ready.state` when no session is given. */
  state?: object;
  /** The deferred startup that `awaitsStartup` methods wait for; finished at once when omitted. */
  startup?: Promise<void>;
}

/**
 * The domain side of a served test connection: the ports it is given (the others fail when called),
 * an event source the test drives with `emit`, and a count of the cancellations the connection asked
 * for (a client that went away).
 */
export class TestSessionModule implements SessionModule {
  readonly session: SessionPort;
  readonly sessions: SessionsPort;
  readonly models: ModelPort;
  readonly thinking: ThinkingPort;
  readonly commands: CommandPort;
  readonly events = { subscribe: (listener: SessionEventListener) => this.subscribe(listener) };
  /** How often the connection cancelled the work (stdin closed, a signal, stalled output). */
  cancelled = 0;
  /** Resolves `cancel()` only when the test says so; at once when unset. */
  cancelGate: Promise<void> | undefined;
  private cancelWaiters: (() => void)[] = [];
  private listeners: SessionEventListener[] = [];
  private readonly startup: Promise<void>;

  constructor(options: TestSessionOptions = {}) {
    const state = options.state ?? { sessionId: "test-session", activity: { type: "idle" } };
    this.session = options.session ?? absent<SessionPort>("SESSION", { getState: () => state as never });
    this.sessions = options.sessions ?? absent<SessionsPort>("SESSIONS");
    this.models = options.models ?? absent<ModelPort>("MODELS");
    this.thinking = options.thinking ?? absent<ThinkingPort>("THINKING");
    this.commands = options.commands ?? absent<CommandPort>("COMMANDS");
    this.startup = options.startup ?? Promise.resolve();
    // A test may fail its startup before RpcApplication asks for it (afterReady runs a turn after the
    // wiring): the failure is reported through afterReady's promise, not as an unhandled rejection.
    this.startup.catch(() => undefined);
  }

  /** Emits like a producer that honours backpressure: resolves once every listener has taken the event. */
  async emit(event: AgentSessionEvent | Record<string, unknown>): Promise<void> {
    for (const listener of this.listeners) await listener(event as AgentSessionEvent);
  }

  afterReady(): Promise<void> {
    return this.startup;
  }

  async restoreModel(): Promise<void> {}

  async cancel(): Promise<void> {
    this.cancelled++;
    for (const wake of this.cancelWaiters.splice(0)) wake();
    await this.cancelGate;
  }

  /** Resolves once the connection has cancelled the work at least once. */
  async whenCancelled(): Promise<void> {
    if (this.cancelled === 0) await new Promise<void>((wake) => this.cancelWaiters.push(wake));
  }

  async dispose(): Promise<void> {}

  private subscribe(listener: SessionEventListener): () => void {
    this.listeners.push(listener);
    return () => (this.listeners = this.listeners.filter((other) => other !== listener));
  }
}
