import type { MethodMapOf } from "../kernel/method-map.js";
import type { MethodFamily } from "../kernel/method-family.js";
import type { BUILTIN_FAMILIES } from "../../methods/builtin-families.js";
import type { BuiltinPluginFamily } from "../../plugins/builtin-plugin-families.js";
import { MethodClient } from "../shell/method-client.js";
import { kernelBindings } from "./kernel-bindings.js";
import type { FamilyLoader, TokenInstances } from "./rpc-application.js";
import type { SessionModule } from "./session-module.js";

/** Every method Zi serves with its params and result types (the typed client's `ZiMethodMap`, for front ends in core/). */
export type ZiMethods = MethodMapOf<(typeof BUILTIN_FAMILIES)[number] | BuiltinPluginFamily>;

/** A front end's in-process client of one session's methods. */
export type ZiMethodClient = MethodClient<ZiMethods>;

export interface InProcessOptions {
  log: (message: string) => void;
  /** The session's deferred startup (`module.afterReady()`, called once by whoever starts the session). */
  startup: Promise<void>;
  overrides?: TokenInstances;
}

/**
 * Wires the method registry of `module` exactly as RPC mode wires it (the same families, ports and
 * boot-time checks: wrong wiring rejects here) and returns the in-process client over it.
 */
export async function connectInProcess(module: SessionModule, loadFamilies: FamilyLoader, options: InProcessOptions): Promise<ZiMethodClient> {
  const loading = loadFamilies();
  // tsyringe after the families' loader has brought in the Reflect polyfill (see RpcApplication.wire).
  const [families, { MethodWiring }] = await Promise.all([loading, loading.then(() => import("./method-wiring.js"))]);
  const registry = MethodWiring.wire(module, kernelBindings(module), families, options.overrides);
  // A front end in process opens its session when it needs it, not against a first response's clock:
  // every method is checked before the client exists.
  await registry.checkAll();
  registry.rehearseAdmissionsAfter(options.startup, options.log);
  return new MethodClient<ZiMethods>({ registry, startup: options.startup, events: module.events, log: options.log });
}

/**
 * `session.list` alone, in process, for a front end that lists before (or without) any session of
 * its own (ACP's `session/list`): the built-in family's own handler, validation and bounds, over the
 * journals' index under ZI_HOME, its `scope: "cwd"` being `cwd`.
 */
export async function sessionLister(sessionsDir: string, indexFile: string, cwd: string, log: (message: string) => void): Promise<MethodClient<Pick<ZiMethods, "session.list">>> {
  await import("reflect-metadata");
  const [{ BUILTIN_FAMILIES }, { container }, { MethodRegistry }, { SessionCatalog }, { SessionLibrary }, { SESSIONS }] = await Promise.all([
    import("../../methods/builtin-families.js"),
    import("tsyringe"),
    import("../kernel/method-registry.js"),
    import("../journal/session-catalog.js"),
    import("../session/session-library.js"),
    import("../ports/sessions.port.js"),
  ]);
  const session = BUILTIN_FAMILIES.find((family) => family.family === "session")!.methods as Record<string, MethodFamily["methods"][string]>;
  const scope = container.createChildContainer();
  scope.registerInstance(SESSIONS, new SessionLibrary({ catalog: new SessionCatalog(sessionsDir, indexFile), cwd }));
  const registry = MethodRegistry.build(scope, [{ family: "session", methods: { "session.list": session["session.list"]! } }]);
  await registry.checkAll();
  const none = { subscribe: () => () => undefined };
  return new MethodClient<Pick<ZiMethods, "session.list">>({ registry, startup: Promise.resolve(), events: none, log });
}
