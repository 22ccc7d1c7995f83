import { SANDBOX_MODES, type SandboxMode } from "../wire/session-types.js";
/** A command-line error: one line on stderr, nothing on stdout, exit code 2. */
export class UsageError extends Error {}

export interface ZiOptions {
  /** `prompt`: `zi prompt` prints the system prompt a session started here would send, and exits. */
  mode: "rpc" | "json" | "acp" | "prompt";
  /** `--mode json` only: the prompt (positional arguments joined by spaces). */
  prompt: string | undefined;
  /** `--model PROVIDER/ID`, `--mode json` only. */
  model: { provider: string; id: string } | undefined;
  noSession: boolean;
  sessionFile: string | undefined;
  extensions: string[];
  fauxScript: string | undefined;
  /** `--trust-project`: load project-local code (`.zi/extensions`) for this run. */
  trustProject: boolean;
  /** `--sandbox MODE`: where `bash` runs for this run (docs/sandbox.md); an untrusted project may still tighten it. */
  sandbox?: SandboxMode;
}

export const USAGE_TEXT = [
  "usage: zi --mode rpc [--no-session] [--session FILE] [--extension PATH]... [--faux-script FILE] [--trust-project] [--sandbox MODE]",
  "       zi --mode json [--model PROVIDER/ID] [same options] PROMPT...",
  "       zi --mode acp [--extension PATH]... [--faux-script FILE] [--trust-project]",
  "       zi prompt [--trust-project] [--extension PATH]...",
  "       zi schema",
].join("\n");

/** Parses argv strictly: unknown flags and positional arguments are refused. */

export function parseCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ZiOptions | "help" | "version" | "schema" {
  if (argv.length === 1 && argv[0] === "schema") return "schema";
  const promptCommand = argv[0] === "prompt";
  if (promptCommand) argv = argv.slice(1);
  let mode: string | undefined = promptCommand ? "prompt" : undefined;
  const positional: string[] = [];
  let model: string | undefined;
  const options: ZiOptions = {
    mode: "rpc",
    prompt: undefined,
    model: undefined,
    noSession: false,
    sessionFile: undefined,
    extensions: [],
    fauxScript: env.ZI_FAUX_SCRIPT || undefined,
    trustProject: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = (): string => {
      const next = inline ?? argv[++i];
      if (next === undefined || next === "") throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case "--help":
      case "-h":
        return "help";
      case "--version":
        return "version";
      case "--mode":
        if (promptCommand) throw new UsageError("zi prompt takes no --mode");
        mode = value();
        break;
      case "--no-session":
        options.noSession = true;
        break;
      case "--session":
        options.sessionFile = value();
        break;
      case "--trust-project":
        options.trustProject = true;
        break;
      case "--extension":
        options.extensions.push(value());
        break;
      case "--faux-script":
        options.fauxScript = value();
        break;
      case "--model":
        model = value();
        break;
      case "--sandbox": {
        const mode = value();
        if (!SANDBOX_MODES.includes(mode as SandboxMode)) throw new UsageError(`--sandbox takes ${SANDBOX_MODES.join(", ")}`);
        options.sandbox = mode as SandboxMode;
        break;
      }
      default:
        if (flag.startsWith("-")) throw new UsageError(`unknown option ${flag}`);
        positional.push(arg);
    }
  }
  if (mode === undefined) throw new UsageError("--mode is required");
  if (mode !== "rpc" && mode !== "json" && mode !== "acp" && !(mode === "prompt" && promptCommand)) throw new UsageError(`unsupported mode "${mode}"`);
  options.mode = mode;
  if (mode === "acp") {
    // The editor chooses sessions (session/new, session/load) and models (config options) over ACP.
    if (positional.length > 0) throw new UsageError("positional arguments are not accepted in acp mode; the editor sends prompts");
    if (model !== undefined) throw new UsageError("--model is for --mode json; in acp mode the editor picks the model (or set defaultModel)");
    if (options.noSession || options.sessionFile) throw new UsageError("--no-session and --session are not accepted in acp mode; the editor loads sessions with session/load");
  } else if (mode === "prompt") {
    if (positional.length > 0) throw new UsageError("zi prompt takes no positional arguments");
    if (model !== undefined || options.sessionFile !== undefined) throw new UsageError("zi prompt takes --trust-project and --extension only");
    // Nothing is journaled: the prompt is rebuilt from the files, never read from a session.
    options.noSession = true;
  } else if (mode === "rpc") {
    if (positional.length > 0) {
      throw new UsageError("positional arguments are not accepted in rpc mode; send prompts as session.prompt requests");
    }
    if (model !== undefined) throw new UsageError("--model is for --mode json; in rpc mode send model.select");
  } else {
    options.prompt = positional.join(" ");
    if (options.prompt.trim() === "") throw new UsageError("--mode json needs a prompt");
    if (model !== undefined) options.model = parseModel(model);
  }
  if (options.noSession && options.sessionFile) throw new UsageError("--no-session and --session cannot be combined");
  return options;
}

function parseModel(value: string): { provider: string; id: string } {
  const slash = value.indexOf("/");
  if (slash <= 0 || slash === value.length - 1) throw new UsageError("--model takes PROVIDER/ID, e.g. faux/echo");
  return { provider: value.slice(0, slash), id: value.slice(slash + 1) };
}
