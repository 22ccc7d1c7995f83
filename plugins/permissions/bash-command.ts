import { quote } from "shell-quote";
import { scanCommandLine } from "./shell-scanner.js";

/** One simple command of a shell command line, as a rule sees it. */
export interface CommandPart {
  /** Its words, quotes removed, as the strict scanner read them. */
  tokens: string[];
  /**
   * True unless the scanner understood the whole part exactly as bash runs it and it runs no other
   * command through a wrapper: an `allow` rule never matches an opaque part (it asks).
   */
  opaque: boolean;
  /**
   * Every command the part may run, as far as unwrapping finds (`env rm` → `rm`, `bash -c 'rm x'`
   * → `rm x`, `find -exec rm`, `find -delete` → `rm`, `/bin/rm` → `rm`): what `deny` rules match.
   */
  runs: string[][];
}

/**
 * Commands that run another command given in their arguments. An allow rule never sees through them
 * (the part asks); deny rules match the command they run. Each entry: the options that take a value.
 */
const WRAPPERS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["env", new Set(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"])],
  ["command", new Set<string>()],
  ["exec", new Set(["-a"])],
  ["nice", new Set(["-n", "--adjustment"])],
  ["nohup", new Set<string>()],
  ["timeout", new Set(["-s", "--signal", "-k", "--kill-after"])],
  ["time", new Set(["-f", "--format", "-o", "--output"])],
  ["sudo", new Set(["-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-r", "--role", "-t", "--type", "-U", "--other-user", "-D", "--chdir", "-T", "--command-timeout"])],
  ["doas", new Set(["-u", "-C"])],
  ["xargs", new Set(["-a", "--arg-file", "-d", "--delimiter", "-E", "-e", "--eof", "-I", "-i", "--replace", "-L", "-l", "--max-lines", "-n", "--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var"])],
  ["setsid", new Set<string>()],
  ["stdbuf", new Set(["-i", "-o", "-e", "--input", "--output", "--error"])],
  ["ionice", new Set(["-c", "--class", "-n", "--classdata", "-p", "--pid"])],
  ["chrt", new Set<string>()],
  ["taskset", new Set<string>()],
  ["flock", new Set(["-w", "--timeout", "-E", "--conflict-exit-code"])],
  ["watch", new Set(["-n", "--interval", "-d"])],
  ["strace", new Set(["-o", "-e", "-p", "-s", "-u"])],
  ["unbuffer", new Set<string>()],
  ["busybox", new Set<string>()],
]);
/** Shells and `eval`: the command text they are given is a command line of its own. */
const SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "fish"]);
/** `find` actions that run a command or delete: the part asks, and deny rules see the command (`-delete` is `rm`). */
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
/** `find` actions that write a file they name, as a redirection would: the part asks. */
const FIND_WRITES = new Set(["-fprint", "-fprint0", "-fprintf", "-fls"]);
/** ripgrep's options that run a command they name (`--pre CMD` on every file searched). */
const RG_RUNS = new Set(["--pre", "--hostname-bin"]);
const MAX_DEPTH = 8;
/**
 * Every builtin of bash 5.2 (`compgen -b`; a test checks the installed bash has no other). Bash runs a
 * builtin itself, and many read their arguments as code or change what later words mean: `hash -p
 * /bin/rm ls` makes `ls` run rm, `mapfile -C` evaluates its callback, and `printf -v`, `read`, `[ -v`
 * evaluate an array subscript (`'a[$(rm x)]'`) even in single quotes. So a part whose command is a
 * builtin is opaque unless the builtin is one of the plain ones below.
 */
export const BASH_BUILTINS: ReadonlySet<string> = new Set([".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen", "complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let", "local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask", "unalias", "unset", "wait"]);
/** Builtins that read their words as plain data and change nothing later words mean. */
export const PLAIN_BUILTINS: ReadonlySet<string> = new Set([":", "true", "false", "echo", "pwd", "cd", "type", "help", "dirs", "pushd", "popd", "times", "kill"]);

/** The command word as deny rules compare it: no directory (`/bin/rm` is `rm`). */
const commandName = (word: string): string => word.slice(word.lastIndexOf("/") + 1);

/** The words after a wrapper's own options and arguments (and `NAME=value` for env), or undefined when there is nothing to run. */
function afterWrapper(name: string, words: string[]): string[] | undefined {
  const valued = WRAPPERS.get(name)!;
  let i = 1;
  if (name === "timeout" || name === "chrt" || name === "taskset") {
    // Options, then one positional (the duration, priority or mask) before the command.
    while (i < words.length && words[i]!.startsWith("-")) i += valued.has(words[i]!) ? 2 : 1;
    i++;
  } else if (name === "flock") {
    while (i < words.length && words[i]!.startsWith("-")) i += valued.has(words[i]!) ? 2 : 1;
    i++;
    if (words[i] === "-c") return words.slice(i + 1);
  }
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--") {
      i++;
      break;
    }
    if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
    if (name === "nice" && /^-\d+$/.test(word)) continue;
    if (!word.startsWith("-") || word === "-") break;
    if (valued.has(word)) i++;
  }
  const rest = words.slice(i);
  return rest.length === 0 ? undefined : rest;
}

/** What deny rules see in one simple command's words: the command itself and everything it runs, unwrapped. */
function runsOf(words: string[], depth: number): string[][] {
  if (words.length === 0) return [];
  const name = commandName(words[0]!);
  const found: string[][] = [[name, ...words.slice(1)]];
  if (depth >= MAX_DEPTH) return found;
  if (WRAPPERS.has(name)) {
    if (name === "env") {
      const split = words.findIndex((word) => word === "-S" || word === "--split-string");
      if (split >= 0 && words[split + 1] !== undefined) found.push(...lineRuns(words[split + 1]!, depth + 1));
    }
    const inner = afterWrapper(name, words);
    if (inner) found.push(...runsOf(inner, depth + 1));
  } else if (SHELLS.has(name)) {
    const flag = words.findIndex((word, index) => index > 0 && /^-[a-z]*c[a-z]*$/.test(word));
    if (flag >= 0 && words[flag + 1] !== undefined) found.push(...lineRuns(words[flag + 1]!, depth + 1));
  } else if (name === "eval") {
    found.push(...lineRuns(words.slice(1).join(" "), depth + 1));
  } else if (BASH_BUILTINS.has(words[0]!)) {
    // What a builtin may evaluate: the callback of `mapfile -C`/`readarray -C` (`-tC cb`, `-Ccb` too), a
    // trap's command (after `--` too), the command of `jobs -x`, and the substitutions inside any word
    // (an array subscript runs them, quoted or not).
    if (name === "mapfile" || name === "readarray") {
      for (let i = 1; i < words.length; i++) {
        const at = /^-[A-Za-z]*C/.exec(words[i]!);
        if (!at) continue;
        const callback = words[i]!.length > at[0].length ? words[i]!.slice(at[0].length) : words[i + 1];
        if (callback !== undefined) found.push(...lineRuns(callback, depth + 1));
      }
    }
    const trapped = words[1] === "--" ? words[2] : words[1];
    if (name === "trap" && trapped !== undefined && !trapped.startsWith("-")) found.push(...lineRuns(trapped, depth + 1));
    const executes = words.findIndex((word, index) => index > 0 && /^-[a-z]*x/.test(word));
    if (name === "jobs" && executes > 0) {
      const command = words.slice(words[executes + 1] === "--" ? executes + 2 : executes + 1);
      found.push(...runsOf(command, depth + 1));
    }
    for (const word of words.slice(1)) if (word.includes("$(") || word.includes("`")) found.push(...lineRuns(word, depth + 1));
  } else if (name === "rg") {
    for (let i = 1; i < words.length; i++) {
      const [option, value] = words[i]!.split(/=(.*)/s);
      if (RG_RUNS.has(option!) && (value ?? words[i + 1]) !== undefined) found.push([commandName(value ?? words[i + 1]!)]);
    }
  } else if (name === "find") {
    for (let i = 1; i < words.length; i++) {
      if (words[i] === "-delete") found.push(["rm", ...words.slice(1)]);
      if (FIND_EXEC.has(words[i]!)) {
        const end = words.findIndex((word, index) => index > i && (word === ";" || word === "+"));
        const inner = words.slice(i + 1, end < 0 ? undefined : end);
        found.push(...runsOf(inner, depth + 1));
        if (end > 0) i = end;
      }
    }
  }
  return found;
}

/** Every command a nested command line runs, for deny rules. */
function lineRuns(line: string, depth: number): string[][] {
  return scanCommandLine(line).flatMap((command) => runsOf(command.words, depth));
}

/**
 * True when a part hands a command to something else to run or writes a file it names (a wrapper, a
 * shell, `find -exec`/`-delete`/`-fprint`, `rg --pre`, a builtin that evaluates or rebinds).
 */
function runsAnother(words: string[]): boolean {
  const name = commandName(words[0] ?? "");
  if (WRAPPERS.has(name) || SHELLS.has(name) || name === "eval") return true;
  // `test` is plain but for `-v`, which evaluates a subscript: plain while no word holds one. (`[`
  // never reads exactly: the scanner takes it for a glob.)
  if (words[0] === "test") return words.slice(1).some((word) => word.includes("["));
  if (BASH_BUILTINS.has(words[0] ?? "")) return !PLAIN_BUILTINS.has(words[0]!);
  if (name === "rg") return words.some((word) => RG_RUNS.has(word.split("=")[0]!));
  return name === "find" && words.some((word) => word === "-delete" || FIND_EXEC.has(word) || FIND_WRITES.has(word));
}

/**
 * Splits a shell command line into its simple commands with the strict scanner (shell-scanner.ts):
 * the parts of lists and pipelines, each line, and the commands of substitutions. A part is exact only
 * when bash would run exactly those words and nothing else; everything else is opaque, so an allow
 * rule never lets it run unasked. A command is allowed only if every part is.
 */
export function commandParts(command: string): CommandPart[] {
  return scanCommandLine(command).map((scanned) => ({
    tokens: scanned.words,
    opaque: !scanned.exact || runsAnother(scanned.words),
    runs: runsOf(scanned.words, 0),
  }));
}

/** The words of a rule's `command`, or why it is not one simple command a rule can hold. */
export function ruleCommandTokens(command: string): string[] | string {
  const parts = scanCommandLine(command);
  if (parts.length !== 1) return "command must be one simple command (no `;`, `&&`, `|`, subshells or substitutions)";
  const [part] = parts;
  if (!part!.exact) return `command must be one simple command of plain words (${part!.doubt})`;
  return part!.words;
}

/** A part written back as a command a rule can hold (quoted where needed). */
export function partCommand(part: Pick<CommandPart, "tokens">): string {
  return quote(part.tokens);
}
