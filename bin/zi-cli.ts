// The composition root of the `zi` command (loaded by bin/zi.ts, bundled with its dependencies into
// dist/bin/zi-cli.js by `npm run build`). The guard must be the first import: it captures the real stdout before anything else can write to it.
import { protocolSink } from "../core/kernel/stdout-guard.js";
import { redactStderr } from "../core/config/stderr-redaction.js";
import { setFlagsFromString } from "node:v8";
import { UsageError, type ZiOptions, USAGE_TEXT, parseCliOptions } from "../core/cli/cli-options.js";
import { ZiMain } from "../core/boot/zi-main.js";
import { AgentSessionModule } from "../core/boot/agent-session-module.js";
import type { ZiPlugin } from "../core/extensions/zi-plugin.js";
import type { PermissionPort } from "../plugins/permissions/permission.port.js";
import type { McpPort } from "../plugins/mcp/mcp.port.js";

// Zi promises bounded memory under load: V8's default young generation grows to 16 MiB semi-spaces
// under a request flood (measured: +35 MiB RSS), against about +20 MiB with this flag, at no
// measurable cost in throughput (npm run bench).
setFlagsFromString("--optimize-for-size");

const log = (message: string) => void process.stderr.write(`${message}\n`);

// A promise some extension or dependency forgot to handle must not take the session down with it
// (Node's default would exit): it is reported on stderr and the session goes on.
process.on("unhandledRejection", (reason) => {
  log(`zi: unhandled promise rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
});

let parsed: ReturnType<typeof parseCliOptions>;
try {
  parsed = parseCliOptions(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  log(`zi: ${error.message}`);
  log(USAGE_TEXT);
  process.exit(2);
}

// Frames leave through the credential scrub once the module knows the credentials (before `ready`).
let redactFrames: ((json: string) => string) | undefined;
const sink = protocolSink();
const output: typeof sink = { write: (data, done) => sink.write(redactFrames ? redactFrames(data) : data, done) };
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
  const module = await AgentSessionModule.create(options, process.env, process.cwd(), loadPlugins);
  redactStderr((text) => module.redact(text));
  redactFrames = (json) => module.redactJson(json);
  return module;
};

/** `zi prompt`: the system prompt a session started here would send, loaded exactly as a session loads it. */
async function printSystemPrompt(options: ZiOptions): Promise<number> {
  let module: AgentSessionModule;
  try {
    module = await createModule(options);
  } catch (error) {
    log(`zi: cannot start: ${(error as Error).message}`);
    return 1;
  }
  try {
    await module.afterReady();
    await print(await module.systemPrompt());
    return 0;
  } finally {
    await module.dispose();
  }
}

let code: number;
// Asked-for help and version are the command's output (stdout, exit 0); usage errors stay on stderr.
if (parsed === "help") {
  await print(USAGE_TEXT);
  code = 0;
} else if (parsed === "version") {
  await print(ZiMain.version());
  code = 0;
} else if (parsed === "schema") {
  // Families first: they bring in the Reflect polyfill that the schema's imports check for on load.
  const families = await loadFamilies();
  const { generateProtocolSchema } = await import("../core/schema/protocol-schema.js");
  await print(JSON.stringify(generateProtocolSchema(families), null, 2));
  code = 0;
} else if (parsed.mode === "prompt") {
  code = await printSystemPrompt(parsed);
} else if (parsed.mode === "json") {
  const { JsonMain } = await import("../core/json-mode/json-main.js");
  code = await new JsonMain(parsed, createModule, output, log).run();
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
  // What the first session needs, loaded while the editor initializes (it prompts right after
  // session/new): the plugins' modules and the default model's provider path.
  setImmediate(() => {
    void import("../plugins/builtin-plugins.js").catch(() => undefined);
    void import("../core/models/default-model-warm-up.js").then(({ warmDefaultModel }) => warmDefaultModel(paths, env));
  });
  await import("reflect-metadata");
  const [{ AcpPluginPorts }, { PERMISSIONS }, { MCP }] = await Promise.all([
    import("../core/acp/acp-plugin-ports.js"),
    import("../plugins/permissions/permission.port.js"),
    import("../plugins/mcp/mcp.port.js"),
  ]);
  const createSession = async (request: { cwd: string; sessionFile?: string }) => {
    // The session's own plugin instances, kept so that the front end can reach their ports.
    let plugins: readonly ZiPlugin[] = [];
    const loadPlugins = async () => (plugins = await sessionPlugins());
    const module = await AgentSessionModule.create({ ...options, sessionFile: request.sessionFile }, env, request.cwd, loadPlugins);
    redactStderr((text) => module.redact(text));
    await module.restoreModel();
    const ports = new AcpPluginPorts(() => plugins);
    return { module, ports: { permissions: () => ports.get<PermissionPort>(PERMISSIONS), mcp: () => ports.get<McpPort>(MCP) } };
  };
  code = await new AcpMain({ createSession, sessionsDir: paths.sessionsDir, version: ZiMain.version().replace(/^zi /, "") }, { input: process.stdin, output, log }).run();
} else {
  code = await new ZiMain(parsed, loadFamilies, createModule, { input: process.stdin, output, log }).run();
}
process.exit(code);
