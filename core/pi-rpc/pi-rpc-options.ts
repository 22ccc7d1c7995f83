import { existsSync, readFileSync } from "node:fs";
import type { ZiOptions } from "../cli/cli-options.js";
import { defaultZiOptions } from "../cli/default-options.js";
import { THINKING_LEVELS, type ThinkingLevel } from "../wire/session-types.js";

/**
 * A pi command-line error: pi's own wording (`Error: …` on stderr) and pi's exit code 1. Not a
 * UsageError: cli-options.ts imports this file, and a class extending one of its classes would be an
 * import cycle evaluated before its base exists.
 */
export class PiUsageError extends Error {}

/** What pi's command line asks of the session beyond Zi's own options; applied once the session has started. */
export interface PiRpcFlags {
  provider: string | undefined;
  /** `--model PATTERN`, `provider/id` and an optional `:<thinking>` suffix as pi takes it. */
  model: string | undefined;
  thinking: ThinkingLevel | undefined;
  /** `--models a,b`: the models `cycle_model` cycles through (pi's scoped models). */
  models: string[] | undefined;
  /** `--tools a,b`: the only tools whose calls run; `[]` for `--no-tools`. */
  tools: string[] | undefined;
  /** pi's `Warning:` lines (an invalid `--thinking`, flags Zi has nothing to do for). */
  warnings: string[];
}

/** `zi --mode pi-rpc` is asked for by `--mode pi-rpc` anywhere in argv (pi's RpcClient puts `--mode rpc` first). */
export function wantsPiRpc(argv: readonly string[]): boolean {
  return argv.some((arg, i) => arg === "--mode=pi-rpc" || (arg === "--mode" && argv[i + 1] === "pi-rpc"));
}

const takesValue = (...names: string[]) => new Set(names);
/** pi 0.73.1's flags that only shape its terminal UI or resources Zi does not have: accepted, with a warning. */
const IGNORED_WITH_VALUE = takesValue("--theme", "--prompt-template", "--skill");
const IGNORED_FLAGS = new Set(["--no-themes", "--no-prompt-templates", "-np", "--no-skills", "-ns", "--no-extensions", "-ne", "--no-context-files", "-nc", "--verbose", "--offline"]);
/** pi flags Zi cannot honour in pi-rpc mode: refused, because going on would not do what the client asked. */
const REFUSED = new Map<string, string>([
  ["--system-prompt", "Zi builds the system prompt from SYSTEM.md and APPEND_SYSTEM.md (docs/context.md); use --append-system-prompt to add text"],
  ["--api-key", "Zi reads provider keys from the environment or ZI_HOME/auth.json (docs/models.md)"],
  ["--fork", "start from the session with --session and send the fork command"],
  ["--continue", "pass the session file with --session"],
  ["-c", "pass the session file with --session"],
  ["--resume", "pass the session file with --session"],
  ["-r", "pass the session file with --session"],
  ["--print", "use zi --mode json for one prompt"],
  ["-p", "use zi --mode json for one prompt"],
  ["--export", "send the export_html command"],
  ["--list-models", "send get_available_models"],
]);

/**
 * pi's command line as its RPC clients pass it (`pi --mode rpc --provider p --model m --no-session …`),
 * parsed with pi's rules: `--mode` may repeat (RpcClient always passes `--mode rpc`), a flag missing its
 * value is skipped, an invalid `--thinking` is a warning, an unknown flag is `Error: Unknown option: --x`.
 * Zi's own `--faux-script` and `--trust-project` are accepted too.
 */
export function parsePiRpcOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ZiOptions {
  const options: ZiOptions = { ...defaultZiOptions("pi-rpc", env), appendSystemPrompt: [] };
  const pi: PiRpcFlags = { provider: undefined, model: undefined, thinking: undefined, models: undefined, tools: undefined, warnings: [] };
  const unknown: string[] = [];
  const positional: string[] = [];
  const list = (value: string) =>
    value
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name.length > 0);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const hasValue = i + 1 < argv.length;
    const value = () => argv[++i]!;
    if (arg === "--mode=pi-rpc") continue;
    if (arg === "--mode" && hasValue) {
      const mode = value();
      if (mode !== "rpc" && mode !== "pi-rpc") throw new PiUsageError(`--mode ${mode} cannot be combined with --mode pi-rpc`);
    } else if (arg === "--provider" && hasValue) pi.provider = value();
    else if (arg === "--model" && hasValue) pi.model = value();
    else if (arg === "--thinking" && hasValue) {
      const level = value();
      if ((THINKING_LEVELS as readonly string[]).includes(level)) pi.thinking = level as ThinkingLevel;
      else pi.warnings.push(`Invalid thinking level "${level}". Valid values: ${THINKING_LEVELS.join(", ")}`);
    } else if (arg === "--no-session") options.noSession = true;
    else if (arg === "--session" && hasValue) options.sessionFile = value();
    else if (arg === "--session-dir" && hasValue) options.sessionDir = value();
    else if (arg === "--append-system-prompt" && hasValue) options.appendSystemPrompt!.push(promptText(value()));
    else if ((arg === "--extension" || arg === "-e") && hasValue) options.extensions.push(value());
    else if (arg === "--models" && hasValue) pi.models = list(value());
    else if ((arg === "--tools" || arg === "-t") && hasValue) pi.tools = list(value());
    else if (arg === "--no-tools" || arg === "-nt" || arg === "--no-builtin-tools" || arg === "-nbt") pi.tools = [];
    else if (arg === "--faux-script" && hasValue) options.fauxScript = value();
    else if (arg === "--trust-project") options.trustProject = true;
    else if (arg === "--help" || arg === "-h" || arg === "--version" || arg === "-v") throw new PiUsageError(`${arg} is not served in pi-rpc mode; run zi ${arg}`);
    else if (REFUSED.has(arg)) throw new PiUsageError(`${arg} is not supported by zi --mode pi-rpc: ${REFUSED.get(arg)}`);
    else if (IGNORED_WITH_VALUE.has(arg) && hasValue) pi.warnings.push(`${arg} ${value()} has no effect in zi --mode pi-rpc`);
    else if (IGNORED_FLAGS.has(arg)) pi.warnings.push(`${arg} has no effect in zi --mode pi-rpc`);
    else if (arg.startsWith("@")) throw new PiUsageError(`file arguments (${arg}) are not accepted in rpc mode; send prompts as commands`);
    else if (arg.startsWith("--")) {
      // As pi: an unknown long flag takes the next word as its value (an extension flag would), then is refused.
      const eq = arg.indexOf("=");
      unknown.push(eq === -1 ? arg : arg.slice(0, eq));
      const next = argv[i + 1];
      if (eq === -1 && next !== undefined && !next.startsWith("-") && !next.startsWith("@")) i++;
    } else if (arg.startsWith("-")) throw new PiUsageError(`Unknown option: ${arg}`);
    else positional.push(arg);
  }
  if (unknown.length > 0) throw new PiUsageError(`Unknown option${unknown.length === 1 ? "" : "s"}: ${unknown.join(", ")}`);
  if (positional.length > 0) throw new PiUsageError("positional arguments are not accepted in rpc mode; send prompts as prompt commands");
  if (options.noSession && options.sessionFile) throw new PiUsageError("--no-session and --session cannot be combined");
  options.pi = pi;
  return options;
}

/** As pi: an `--append-system-prompt` value naming a readable file stands for the file's text. */
function promptText(value: string): string {
  try {
    if (existsSync(value)) return readFileSync(value, "utf8");
  } catch {
    // not a readable file: the value is the text
  }
  return value;
}
