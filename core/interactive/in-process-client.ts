import type { FamilyLoader } from "../boot/rpc-application.js";
import { connectInProcess, type ZiMethodClient } from "../boot/in-process-methods.js";
import type { SessionModule } from "../boot/session-module.js";
import { RpcError } from "../kernel/rpc-error.js";
import type { AgentSessionEvent } from "../wire/session-types.js";
import { SessionCallError, type SessionClient } from "./session-client.js";

/**
 * The interactive mode's view of one session: core/shell's MethodClient over the registry RPC mode
 * wires (the same handlers, params validation, startup gate, slots and result bound), and the
 * session's event stream. Nothing here reaches the session but through a method.
 */
export class InProcessClient implements SessionClient {
  readonly ready: Promise<{ state: any; limits: any }>;
  private readonly methods: Promise<ZiMethodClient>;
  private readonly listeners = new Set<(event: AgentSessionEvent) => void>();
  private readonly unsubscribe: () => void;

  constructor(module: SessionModule, loadFamilies: FamilyLoader, log: (message: string) => void) {
    // Events from the first: what the deferred startup emits (extension_error) is shown too.
    this.unsubscribe = module.events.subscribe((event) => {
      for (const listener of this.listeners) listener(event);
    });
    const startup = module.afterReady();
    startup.catch((error) => log(`zi: startup failed: ${(error as Error).message}`));
    this.methods = connectInProcess(module, loadFamilies, { log, startup });
    this.ready = this.methods.then(async (methods) => ({ state: await methods.callRaw("session.get_state", undefined), limits: undefined }));
  }

  async call<T = any>(method: string, params?: object): Promise<T> {
    try {
      return (await (await this.methods).callRaw(method, params)) as T;
    } catch (error) {
      if (error instanceof RpcError) throw new SessionCallError(error.code, error.message);
      throw error;
    }
  }

  onEvent(listener: (event: AgentSessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<number> {
    this.unsubscribe();
    return 0;
  }
}
