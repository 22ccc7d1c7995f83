// The composition root of the `zi` command (loaded by bin/zi.ts, bundled with its dependencies into
// dist/bin/zi-cli.js by `npm run build`). The guard must be the first import: it captures the real stdout before anything else can write to it.
import { protocolSink, protocolTerminal } from "../core/kernel/stdout-guard.js";
import { ProcessShell } from "../core/shell/process-shell.js";
import { setFlagsFromString } from "node:v8";
import { UsageError, type ZiOptions, USAGE_TEXT, parseCliOptions } from "../core/cli/cli-options.js";
import { ZiMain } from "../core/boot/zi-main.js";
import { PiUsageError } from "../core/pi-rpc/pi-rpc-options.js";
import { type ExportCommand, parseExportCommand } from "../core/cli/export-command.js";
import { AgentSessionModule } from "../core/boot/agent-session-module.js";
import type { ZiPlugin } from "../core/extensions/zi-plugin.js";
import { ProviderWarmer } from "../core/models/provider-warmer.js";

// The process around every mode: signals, the uncaught-exception policy, the one redactor for frames
// and stderr, the flushed exit (docs/architecture.md, The process shell).
const shell = ProcessShell.install(protocolSink());
const log = shell.log;

let parsed: ReturnType<typeof parseCliOptions> | ExportCommand;
try {
  const argv = process.argv.slice(2);
  parsed = argv[0] === "export" ? parseExportCommand(argv.slice(1)) : parseCliOptions(argv, process.env, { stdinIsTTY: process.stdin.isTTY === true, stdoutIsTTY: protocolTerminal() !== undefined });
} catch (error) {
  if (error instanceof PiUsageError) {
    // pi's wording and exit code for pi's command line (docs/pi-rpc.md).
    log(`Error: ${error.message}`);
    process.exit(1);
  }
  if (!(error instanceof UsageError)) throw error;
  log(`zi: ${error.message}`);
  log(USAGE_TEXT);
  await shell.flush();
  process.exit(2);
}

// Zi promises bounded memory under load: V8's default young generation grows to 16 MiB semi-spaces
// under a request flood (measured: +35 MiB RSS), against about +20 MiB with this flag, at no
// measurable cost in throughput (npm run bench). Not for a person at a terminal, where a streamed
// answer's CPU time is what counts and the smaller young generation costs it GC time (the tui rows),
// nor for an editor's ACP agent, which answers one person's prompts, not floods (~10% more CPU in GC
// to its first reply; docs/performance.md, ACP). The parsed mode decides: the parser is the one reader of argv.
// Scavenges on the main thread alone, too: Node 26's first scavenge, which comes before a first
// response, took 3.4-3.9 ms with the parallel scavenger against 0.85-1.2 without (--trace-gc, a load
// average of ~1), a wait the echo child never pays; young generations this small gain little from
// helper threads (the flood, round-trip and gc rows did not move; docs/performance.md).
// No baseline (Sparkplug) compiler either: on Node 26, from here on, it compiled ~105 functions before
// a first response and ~155 before a first `model.select` (--log-function-events; about half of them
// Node's module loader and URL code), work a process that answers a request and then idles does not
// win back; the optimizing tiers still take over hot code (the flood and round-trip rows did not move,
// a later prompt's first delta came sooner). The flags above already change V8's flag hash, so this
// one costs no code cache.
const PERSON_FACING = new Set(["interactive", "acp"]);
if (typeof parsed !== "object" || !("mode" in parsed) || !PERSON_FACING.has(parsed.mode)) {
  setFlagsFromString("--optimize-for-size");
  setFlagsFromString("--no-parallel-scavenge");
  setFlagsFromString("--no-sparkplug");
}

// Frames leave through the credential scrub; the module feeds the redactor before `ready`.
const output = shell.output;
const print = (text: string) => new Promise<void>((resolve) => output.write(`${text}\n`, () => resolve()));
// Plugins and families load after `ready` (decorators need reflect-metadata first; method-wiring imports it).
let plugins: Promise<readonly ZiPlugin[]> | undefined;
const loadPlugins = () =>
  (plugins ??= import("reflect-metadata").then(async () => (await import("../plugins/builtin-plugins.js")).builtinPlugins()));
const loadFamilies = async () => {
  const loaded = await loadPlugins();
  const [{ BUILTIN_FAMILIES }, { withPluginFamilies }] = await Promise.all([
    import("../methods/builtin-families.js"),
    import("../core/extensions/plugin-composition.js"),
  ]);
  return withPluginFamilies(BUILTIN_FAMILIES, loaded);
};
const createModule = async (options: ZiOptions) => {
  return AgentSessionModule.create(options, process.env, process.cwd(), loadPlugins, shell.redactor);
};

/** The session, or undefined once one stderr line has said why it cannot start. */
async function startModule(options: ZiOptions): Promise<AgentSessionModule | undefined> {
  try {
    return await createModule(options);
  } catch (error) {
    log(`zi: cannot start: ${(error as Error).message}`);
    return undefined;
  }
}

/** `zi prompt`: the system prompt a session started here would send, loaded exactly as a session loads it. */
async function printSystemPrompt(options: ZiOptions): Promise<number> {
  const module = await startModule(options);
  if (!module) return 1;
  try {
    await module.afterReady();
    await print(await module.systemPrompt());
    return 0;
  } finally {
    await module.dispose();
  }
}

/** `zi --mode pi-rpc`: pi's RPC protocol over the same methods RPC mode serves, called in process. */
async function runPiRpc(options: ZiOptions): Promise<number> {
  const module = await startModule(options);
  if (!module) return 1;
  const [{ PiRpcMain }, { connectInProcess }] = await Promise.all([import("../core/pi-rpc/pi-rpc-main.js"), import("../core/boot/in-process-methods.js")]);
  const startup = module.afterReady();
  startup.catch((error: Error) => log(`zi: startup failed: ${error.stack ?? error.message}`));
  const client = await connectInProcess(module, loadFamilies, { log, startup });
  const names = new Set(client.names());
  const methods = {
    call: <T>(method: string, params?: Record<string, unknown>) => client.callRaw(method, params) as Promise<T>,
    onEvent: client.subscribe.bind(client),
    has: (method: string) => names.has(method),
  };
  const session = { methods, cancel: () => module.cancel(), dispose: () => module.dispose(), reportUncaught: module.reportUncaught.bind(module) };
  const journal = { noSession: options.noSession, ...(options.sessionFile === undefined ? {} : { sessionFile: options.sessionFile }) };
  return new PiRpcMain(session, options.pi, { input: process.stdin, output, log }, shell, journal).run();
}

let code: number;
// Asked-for help and version are the command's output (stdout, exit 0); usage errors stay on stderr.
if (parsed === "help") {
  const { helpText } = await import("../core/cli/help-text.js");
  await print(helpText());
  code = 0;
} else if (parsed === "version") {
  await print(ZiMain.version());
  code = 0;
} else if (parsed === "schema") {
  // Families first: they bring in the Reflect polyfill that the schema's imports check for on load.
  const families = await loadFamilies();
  const [{ generateProtocolSchema }, { loadMethodClasses }] = await Promise.all([import("../core/schema/protocol-schema.js"), import("../core/kernel/lazy-method.js")]);
  await loadMethodClasses(families);
  await print(JSON.stringify(generateProtocolSchema(families), null, 2));
  code = 0;
} else if (typeof parsed === "object" && "command" in parsed) {
  const { runExport } = await import("../core/cli/export-main.js");
  code = await runExport(parsed, process.cwd(), print, log);
} else if (parsed.mode === "prompt") {
  code = await printSystemPrompt(parsed);
} else if (parsed.mode === "json") {
  const { JsonMain } = await import("../core/json-mode/json-main.js");
  code = await new JsonMain(parsed, createModule, output, log, shell).run();
} else if (parsed.mode === "print") {
  const { PrintMain } = await import("../core/json-mode/print-main.js");
  code = await new PrintMain(parsed, createModule, { input: process.stdin.isTTY ? undefined : process.stdin, output, log }, shell).run();
} else if (parsed.mode === "interactive") {
  const { InteractiveMain } = await import("../core/interactive/interactive-main.js");
  code = await new InteractiveMain(parsed, loadFamilies, createModule, log, ZiMain.version(), shell).run();
} else if (parsed.mode === "acp") {
  const [{ AcpMain }, { ZiPaths }] = await Promise.all([import("../core/acp/acp-main.js"), import("../core/config/zi-paths.js")]);
  // One ZI_HOME for every session, whatever each session's cwd (a relative ZI_HOME is taken from Zi's own cwd).
  const paths = new ZiPaths({ env: process.env, cwd: process.cwd() });
  const env = { ...process.env, ZI_HOME: paths.ziHome };
  // Each ACP session gets its own plugin instances (work plans and delegation keep per-session state).
  const sessionPlugins = async () => {
    await import("reflect-metadata");
    return (await import("../plugins/builtin-plugins.js")).builtinPlugins();
  };
  const options = parsed;
  // How long a new ACP session waits for the provider warm-ups (below); they take tens of milliseconds.
  const ACP_WARM_UP_WAIT_MS = 2_000;
  // What the first session needs, loaded while the editor initializes (it prompts right after
  // session/new): the default model's provider path, and every module the session's wiring and its
  // plugins' activation import (nothing of them run; a module that fails to load fails the session).
  const warmed = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
    const { warmDefaultModel } = await import("../core/models/default-model-warm-up.js");
    await warmDefaultModel(paths, env);
  });
  void warmed
    .then(async () => {
      await import("reflect-metadata");
      const [{ builtinPlugins }] = await Promise.all([
        import("../plugins/builtin-plugins.js"),
        import("../methods/builtin-families.js"),
        import("../core/extensions/plugin-composition.js"),
        import("../core/boot/method-wiring.js"),
      ]);
      await Promise.all(builtinPlugins().map((plugin: ZiPlugin) => plugin.preload?.()));
    })
    .catch(() => undefined);
  const { connectInProcess, sessionLister } = await import("../core/boot/in-process-methods.js");
  const createSession = async (request: { cwd: string; sessionFile?: string }) => {
    // The session's own plugin instances: its extensions and its method families are the same objects.
    const plugins = sessionPlugins();
    const module = await AgentSessionModule.create({ ...options, sessionFile: request.sessionFile }, env, request.cwd, () => plugins, shell.redactor);
    await module.restoreModel();
    const startup = module.afterReady();
    startup.catch(() => undefined); // reported by the session that waits on it
    const families = async () => {
      const { BUILTIN_FAMILIES } = await import("../methods/builtin-families.js");
      const { withPluginFamilies } = await import("../core/extensions/plugin-composition.js");
      return withPluginFamilies(BUILTIN_FAMILIES, await plugins);
    };
    const methods = await connectInProcess(module, families, { log, startup });
    // The editor prompts right after session/new: the session is handed over once the provider
    // warm-ups started so far (the default model's, this session's model's) have ended, so that its
    // first prompt runs a warm path rather than beside the rest of a warm-up (docs/performance.md, ACP).
    await warmed.catch(() => undefined);
    await ProviderWarmer.settledWithin(ACP_WARM_UP_WAIT_MS);
    return { module, methods, startup };
  };
  code = await new AcpMain({ createSession, sessionLister: (cwd) => sessionLister(paths.sessionsDir, paths.sessionIndexFile, cwd, log), sessionsDir: paths.sessionsDir, version: ZiMain.version().replace(/^zi /, "") }, { input: process.stdin, output, log }, shell).run();
} else if (parsed.mode === "pi-rpc") {
  code = await runPiRpc(parsed);
} else {
  code = await new ZiMain(parsed, loadFamilies, createModule, { input: process.stdin, output, log }, shell).run();
}
await shell.exit(code);
