import type { DependencyContainer } from "tsyringe";
import { checkOneNameEach, composeTable, declareMethod, type CatalogMethod, type TableEntry } from "./method-catalog.js";
import { loadedClass, type LazyMethod } from "./lazy-method.js";
import type { HandlerClass, MethodFamily } from "./method-family.js";
import type { RpcMethodMetadata } from "./rpc-method-metadata.js";
import type { RpcHandler } from "./rpc-handler.js";
import { ParamsValidator } from "./params-validator.js";
import { RpcError } from "./rpc-error.js";

export interface RegisteredMethod extends RpcMethodMetadata {
  readonly handler: RpcHandler;
}

/** A lazily listed method not loaded yet: its table entry, and the scope its handler resolves in. */
interface PendingMethod {
  readonly entry: TableEntry & { readonly entry: LazyMethod };
  readonly scope: DependencyContainer;
  loading?: Promise<RegisteredMethod>;
}

/**
 * The method table of one connection, built once at boot from the composed families. Each family gets
 * its own child scope (its `register` bindings reach its own handlers only). The table's own rules (a
 * duplicate name, a method outside its family) fail in `build`, and every class listed as itself is
 * checked and resolved there too, so wrong wiring (a class without @RpcMethod, an unbound port, a DTO
 * without rules) fails before any request is admitted. A class listed lazily is checked and resolved
 * by `load`, which admission awaits before the method's first request (so no handler runs unchecked),
 * and all of them by `checkAll`, which the composition root runs once the deferred startup has ended
 * (after the first response) and which ends the process on a failure as `build` would.
 */
export class MethodRegistry {
  private readonly checked: CatalogMethod[] = [];

  private constructor(
    private readonly order: readonly string[],
    private readonly methods: Map<string, RegisteredMethod>,
    private readonly pending: Map<string, PendingMethod>,
    readonly params: ParamsValidator,
  ) {}

  static build(container: DependencyContainer, families: readonly MethodFamily[]): MethodRegistry {
    const registry = new MethodRegistry([], new Map(), new Map(), new ParamsValidator());
    const scopes = new Map<MethodFamily, DependencyContainer>();
    const order = registry.order as string[];
    for (const entry of composeTable(families)) {
      let scope = scopes.get(entry.family);
      if (!scope) {
        scope = container.createChildContainer();
        entry.family.register?.(scope);
        scopes.set(entry.family, scope);
      }
      order.push(entry.name);
      const handlerClass = loadedClass(entry.entry);
      if (handlerClass) registry.register(entry, scope, handlerClass);
      else registry.pending.set(entry.name, { entry: entry as PendingMethod["entry"], scope });
    }
    checkOneNameEach(registry.checked);
    return registry;
  }

  /** The method, once checked and resolved; undefined for an unknown name and for a lazy one not loaded yet. */
  get(name: string): RegisteredMethod | undefined {
    return this.methods.get(name);
  }

  /** Whether a known method awaits the deferred startup, known at boot whether its class is loaded or not. */
  awaitsStartup(name: string): boolean {
    return this.methods.get(name)?.awaitsStartup ?? this.pending.get(name)?.entry.entry.flags.awaitsStartup ?? false;
  }

  /** The method, checked and resolved (its class imported first if it is listed lazily); undefined for an unknown name. */
  load(name: string): Promise<RegisteredMethod> | undefined {
    const method = this.methods.get(name);
    if (method) return Promise.resolve(method);
    const pending = this.pending.get(name);
    if (!pending) return undefined;
    return (pending.loading ??= pending.entry.entry.load().then(
      (handlerClass) => {
        // Pending until checked: a failed check stays pending, and checkAll reports it.
        const method = this.register(pending.entry, pending.scope, handlerClass);
        this.pending.delete(name);
        return method;
      },
      (error: unknown) => {
        throw new Error(`cannot load method "${name}": ${(error as Error)?.message ?? String(error)}`);
      },
    ));
  }

  /**
   * Resolves once no load that a request started is in flight (those started meanwhile included):
   * the check after boot waits for it, so the first requests' own imports go first.
   */
  async loadsSettled(): Promise<void> {
    const awaited = new Set<Promise<RegisteredMethod>>();
    for (;;) {
      const loading = [...this.pending.values()].flatMap((pending) => (pending.loading && !awaited.has(pending.loading) ? [pending.loading] : []));
      if (loading.length === 0) return;
      for (const promise of loading) awaited.add(promise);
      await Promise.allSettled(loading);
    }
  }

  /**
   * Loads, checks and resolves every method still pending, one after the other in table order, so the
   * error reported is the first wrong wiring in the table, as `build` would report it for classes
   * listed as themselves.
   */
  async checkAll(): Promise<void> {
    for (const name of this.order) if (this.pending.has(name)) await this.load(name);
    checkOneNameEach(this.checked);
  }

  /**
   * Admits each checked method's declared rehearsal params (RpcMethodOptions.rehearsal) through the
   * validator a request's params go through, and keeps nothing: no slot is taken, no handler runs,
   * nothing is written. A first `session.prompt` otherwise paid for its DTO's first validation (its
   * rules' code compiled on the spot, ~0.3 ms; docs/performance.md). A rehearsal its own method
   * refuses (its declaration is wrong) is logged, naming the method and the fields.
   */
  rehearseAdmissionsAfter(startup: Promise<unknown>, log: (message: string) => void): void {
    // In a turn of its own once the start-up has ended: neither a request nor the start-up waits for it.
    void startup.then(
      () => setImmediate(() => this.rehearseAdmissions(log)),
      () => undefined,
    );
  }

  private rehearseAdmissions(log: (message: string) => void): void {
    for (const method of this.methods.values()) {
      if (method.rehearsal === undefined) continue;
      try {
        this.params.admit(method.params, method.rehearsal as Record<string, unknown>);
      } catch (error) {
        const reason = error instanceof RpcError && error.details !== undefined ? JSON.stringify(error.details) : (error as Error).message;
        log(`zi: method "${method.name}" refuses its own rehearsal params: ${reason}`);
      }
    }
  }

  names(): string[] {
    return [...this.order];
  }

  private register(entry: TableEntry, scope: DependencyContainer, handlerClass: HandlerClass): RegisteredMethod {
    const method = declareMethod(entry, handlerClass);
    if (method.params) this.params.prepare(method.params);
    const { family: _family, handlerClass: _class, ...metadata } = method;
    const registered = { ...metadata, handler: resolveHandler(scope, method) };
    this.checked.push(method);
    this.methods.set(method.name, registered);
    return registered;
  }
}

function resolveHandler(scope: DependencyContainer, method: CatalogMethod): RpcHandler {
  try {
    const handler = scope.resolve(method.handlerClass);
    if (typeof handler.handle !== "function") throw new Error("it has no handle() method");
    return handler;
  } catch (error) {
    throw new Error(`cannot wire method "${method.name}" (${method.handlerClass.name}): ${(error as Error).message}`);
  }
}
