import { defaultZiOptions } from "./default-options.js";
import { parsePiRpcOptions, wantsPiRpc, type PiRpcFlags } from "../pi-rpc/pi-rpc-options.js";
import { BUDGET_NAMES, INTEGER_BUDGETS, budgetFlag, type BudgetLimits, type BudgetName } from "../wire/budget-types.js";
import { SANDBOX_MODES, THINKING_LEVELS, type SandboxMode, type ThinkingLevel } from "../wire/session-types.js";

/** `--max-cost-usd` → `maxCostUsd`, ...: the run budgets of the one-shot modes, flags derived from the names. */
const BUDGET_FLAGS: ReadonlyMap<string, BudgetName> = new Map(BUDGET_NAMES.map((name) => [budgetFlag(name), name]));

/** A command-line error: one line on stderr, nothing on stdout, exit code 2. */
export class UsageError extends Error {}

/** Whether stdin and stdout are terminals: with no --mode, a terminal opens the interactive mode. */
export interface CliTerminal {
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
}

export interface ZiOptions {
  /** `prompt`: `zi prompt` prints the system prompt a session started here would send, and exits. */
  mode: "rpc" | "json" | "acp" | "prompt" | "pi-rpc" | "print" | "interactive";
  /** `--mode json`, `-p` and interactive (the first prompt, optional there): positional arguments joined by spaces. */
  prompt: string | undefined;
  /** `--model PROVIDER/ID`, `--mode json` only. */
  model: { provider: string; id: string } | undefined;
  noSession: boolean;
  sessionFile: string | undefined;
  extensions: string[];
  fauxScript: string | undefined;
  /** `--trust-project`: load project-local code (`.zi/extensions`) for this run. */
  trustProject: boolean;
  /** `--max-cost-usd X`, `--max-tokens N`, `--max-turns N`, `--max-seconds N` (one-shot modes): the run's budget. */
  budget: BudgetLimits;
  /** `--output-schema FILE` (one-shot modes): a JSON Schema the final answer must match. */
  outputSchemaFile: string | undefined;
  /** Where a new session's journal goes instead of ZI_HOME/sessions (pi's `--session-dir`). */
  sessionDir?: string;
  /** Text added to every run's system prompt (pi's `--append-system-prompt`). */
  appendSystemPrompt?: string[];
  /** `--mode pi-rpc`: pi's command line, parsed by core/pi-rpc/pi-rpc-options.ts. */
  pi?: PiRpcFlags;
  /** `--thinking LEVEL` (print, interactive): selected with the model, before the first prompt. */
  thinking?: ThinkingLevel;
  /** `--continue`/`-c`: the latest session of this cwd; `--resume`: pick one (interactive only). */
  pick?: "continue" | "resume";
  /** `--sandbox MODE`: where `bash` runs for this run (docs/sandbox.md); an untrusted project may still tighten it. */
  sandbox?: SandboxMode;
}

export const USAGE_TEXT = [
  "usage: zi --mode rpc [--no-session] [--session FILE] [--extension PATH]... [--faux-script FILE] [--trust-project] [--sandbox MODE]",
  "       zi --mode json [--model PROVIDER/ID] [--output-schema FILE] [--max-cost-usd X] [--max-tokens N] [--max-turns N] [--max-seconds N] [same options] PROMPT...",
  "       zi --mode acp [--extension PATH]... [--faux-script FILE] [--trust-project]",
  "       zi --mode pi-rpc [pi's flags: --provider, --model, --thinking, --no-session, --session, --session-dir, ...]",
  "       zi prompt [--trust-project] [--extension PATH]...",
  "       zi schema",
  "       zi export JOURNAL [OUT]",
  "       zi [--model PROVIDER/ID] [--thinking LEVEL] [-c | --resume] [same options] [PROMPT...]",
  "       zi -p [--model PROVIDER/ID] [same options] PROMPT...   (zi --help explains)",
].join("\n");

/** Parses argv strictly: unknown flags and positional arguments are refused. */

export function parseCliOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  terminal: CliTerminal = { stdinIsTTY: false, stdoutIsTTY: false },
): ZiOptions | "help" | "version" | "schema" {
  if (argv.length === 1 && argv[0] === "schema") return "schema";
  // pi's command line has pi's rules (docs/pi-rpc.md): its own parser.
  if (wantsPiRpc(argv)) return parsePiRpcOptions(argv, env);
  const promptCommand = argv[0] === "prompt";
  if (promptCommand) argv = argv.slice(1);
  let mode: string | undefined = promptCommand ? "prompt" : undefined;
  const positional: string[] = [];
  let model: string | undefined;
  let print = false;
  const options = defaultZiOptions("rpc", env);
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
      case "--output-schema":
        options.outputSchemaFile = value();
        break;
      case "-p":
      case "--print":
        print = true;
        break;
      case "--thinking": {
        const level = value();
        if (!THINKING_LEVELS.includes(level as ThinkingLevel)) throw new UsageError(`--thinking takes one of ${THINKING_LEVELS.join(", ")}`);
        options.thinking = level as ThinkingLevel;
        break;
      }
      case "-c":
      case "--continue":
      case "--resume":
        if (options.pick !== undefined) throw new UsageError("--continue and --resume cannot be combined");
        options.pick = flag === "--resume" ? "resume" : "continue";
        break;
      case "--sandbox": {
        const mode = value();
        if (!SANDBOX_MODES.includes(mode as SandboxMode)) throw new UsageError(`--sandbox takes ${SANDBOX_MODES.join(", ")}`);
        options.sandbox = mode as SandboxMode;
        break;
      }
      default:
        if (BUDGET_FLAGS.has(flag)) {
          const name = BUDGET_FLAGS.get(flag)!;
          const limit = Number(value());
          if (!Number.isFinite(limit) || limit <= 0 || (INTEGER_BUDGETS.has(name) && !Number.isInteger(limit))) {
            throw new UsageError(`${flag} takes a ${INTEGER_BUDGETS.has(name) ? "whole number" : "number"} above 0`);
          }
          options.budget[name] = limit;
          break;
        }
        if (flag.startsWith("-")) throw new UsageError(`unknown option ${flag}`);
        positional.push(arg);
    }
  }
  if (print && mode !== undefined) throw new UsageError("-p is print mode: it takes no --mode");
  if (print) mode = "print";
  if (mode === undefined && terminal.stdinIsTTY && terminal.stdoutIsTTY) mode = "interactive";
  if (mode === undefined) {
    throw new UsageError("--mode is required when stdin or stdout is not a terminal (-p PROMPT prints one answer; zi --help explains)");
  }
  if (mode !== "rpc" && mode !== "json" && mode !== "acp" && mode !== "print" && mode !== "interactive" && !(mode === "prompt" && promptCommand)) {
    throw new UsageError(`unsupported mode "${mode}"`);
  }
  if (mode === "interactive" && !(terminal.stdinIsTTY && terminal.stdoutIsTTY)) throw new UsageError("the interactive mode needs a terminal (stdin and stdout)");
  options.mode = mode;
  if (options.pick !== undefined && mode !== "interactive" && !(mode === "print" && options.pick === "continue")) {
    throw new UsageError(`${options.pick === "resume" ? "--resume" : "--continue"} is for the interactive mode${options.pick === "continue" ? " and -p" : ""}`);
  }
  if (options.pick !== undefined && (options.noSession || options.sessionFile)) throw new UsageError("--continue and --resume pick a session: not with --session or --no-session");
  if (options.thinking !== undefined && mode !== "print" && mode !== "interactive") throw new UsageError("--thinking is for -p and the interactive mode; over rpc send thinking.select");
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
    if (model !== undefined) throw new UsageError("--model is for --mode json, -p and the interactive mode; in rpc mode send model.select");
  } else if (mode === "interactive") {
    // The first prompt is optional: `zi "text"` opens the session with it.
    if (positional.length > 0) options.prompt = positional.join(" ");
    if (model !== undefined) options.model = parseModel(model);
  } else {
    // Print mode's prompt may come whole from piped stdin, so an empty one is refused later, once stdin is read.
    options.prompt = positional.join(" ");
    if (mode === "json" && options.prompt.trim() === "") throw new UsageError("--mode json needs a prompt");
    if (model !== undefined) options.model = parseModel(model);
  }
  if (mode !== "json" && mode !== "print" && (Object.keys(options.budget).length > 0 || options.outputSchemaFile !== undefined)) {
    throw new UsageError("budget flags and --output-schema are for --mode json and -p; over rpc send session.set_budget and outputSchema");
  }
  if (options.noSession && options.sessionFile) throw new UsageError("--no-session and --session cannot be combined");
  return options;
}

function parseModel(value: string): { provider: string; id: string } {
  const slash = value.indexOf("/");
  if (slash <= 0 || slash === value.length - 1) throw new UsageError("--model takes PROVIDER/ID, e.g. faux/echo");
  return { provider: value.slice(0, slash), id: value.slice(slash + 1) };
}
