import type { HandlerClass } from "./method-family.js";
import type { RpcMethodOptions } from "./rpc-method-metadata.js";

/**
 * What admission needs of a method before its class is loaded: its slot and ordering. A method listed
 * as a `LazyMethod` says these here, in its family's table, and not in its @RpcMethod.
 */
export type AdmissionFlags = Pick<RpcMethodOptions, "slot" | "concurrent" | "awaitsStartup">;

/**
 * A family table's entry for a method whose class module is imported on its first call, not at boot:
 * a first response then loads its own method's class and DTO only, not all of them with
 * class-validator's and tsyringe's decorators (docs/performance.md). The registry still checks every
 * method: each one before its first request is admitted, all of them right after the first response.
 */
export class LazyMethod<C extends HandlerClass = HandlerClass> {
  /** The class once imported; undefined until then. */
  loaded: C | undefined;
  private loading: Promise<C> | undefined;

  constructor(
    private readonly importer: () => Promise<C>,
    readonly flags: AdmissionFlags,
  ) {}

  /** Imports the class once; every call returns the same promise. */
  load(): Promise<C> {
    return (this.loading ??= this.importer().then((handlerClass) => {
      if (typeof handlerClass !== "function") throw new Error("its module does not export the class it names");
      return (this.loaded = handlerClass);
    }));
  }
}

/**
 * `lazy(() => import("./prompt.method.js"), "PromptMethod", { awaitsStartup: true })`: the class
 * `PromptMethod` of that module, imported on the method's first call.
 */
export function lazy<M, K extends keyof M>(load: () => Promise<M>, exportName: K, flags: AdmissionFlags = {}): LazyMethod<Extract<M[K], HandlerClass>> {
  return new LazyMethod(async () => (await load())[exportName] as Extract<M[K], HandlerClass>, flags);
}

/** The class of a table entry, if it is loaded: an eager entry is the class itself. */
export function loadedClass(entry: HandlerClass | LazyMethod): HandlerClass | undefined {
  return typeof entry === "function" ? entry : entry.loaded;
}

/**
 * Imports every lazily listed class of `families` (what `zi schema` and a whole-table composition
 * need), one after the other: the first failure is the first in the table's order.
 */
export async function loadMethodClasses(families: readonly { readonly methods: Readonly<Record<string, HandlerClass | LazyMethod>> }[]): Promise<void> {
  for (const family of families) for (const entry of Object.values(family.methods)) if (typeof entry !== "function") await entry.load();
}
