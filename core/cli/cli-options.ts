/** A command-line error: one line on stderr, nothing on stdout, exit code 2. */
export class UsageError extends Error {}

export interface ZiOptions {
  mode: "rpc";
  noSession: boolean;
  sessionFile: string | undefined;
  extensions: string[];
  fauxScript: string | undefined;
}

const USAGE = "usage: zi --mode rpc [--no-session] [--session FILE] [--extension PATH]... [--faux-script FILE]";

/** Parses argv strictly: unknown flags and positional arguments are refused. */
export class CliOptions {
  static readonly usage = USAGE;

  static parse(argv: readonly string[], env: NodeJS.ProcessEnv): ZiOptions | "help" | "version" {
    let mode: string | undefined;
    const options: ZiOptions = { mode: "rpc", noSession: false, sessionFile: undefined, extensions: [], fauxScript: env.ZI_FAUX_SCRIPT || undefined };
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
          mode = value();
          break;
        case "--no-session":
          options.noSession = true;
          break;
        case "--session":
          options.sessionFile = value();
          break;
        case "--extension":
          options.extensions.push(value());
          break;
        case "--faux-script":
          options.fauxScript = value();
          break;
        default:
          if (flag.startsWith("-")) throw new UsageError(`unknown option ${flag}`);
          throw new UsageError("positional arguments are not accepted in rpc mode; send prompts as session.prompt requests");
      }
    }
    if (mode === undefined) throw new UsageError("--mode is required");
    if (mode !== "rpc") throw new UsageError(`unsupported mode "${mode}"`);
    if (options.noSession && options.sessionFile) throw new UsageError("--no-session and --session cannot be combined");
    return options;
  }
}
