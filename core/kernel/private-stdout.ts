import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { Socket } from "node:net";
import { isatty, WriteStream as TtyWriteStream } from "node:tty";
import type { Writable } from "node:stream";

/**
 * Moves the protocol's stdout to a descriptor no child process inherits, and points fd 1 at stderr.
 *
 * A child spawned with `stdio: "inherit"` (an extension's helper, anything a dependency runs) gets
 * Zi's fd 1; if that were the protocol's pipe, whatever it printed would land between frames. Node has
 * no `dup2`, but on Linux opening `/proc/self/fd/1` opens the same pipe, file or terminal anew, and
 * Node opens every file with O_CLOEXEC, so that copy is Zi's alone. Closing fd 1 and opening
 * `/proc/self/fd/2` then reuses the lowest free descriptor, 1, for stderr.
 *
 * Only a pipe or a terminal is moved. A regular file is not: a reopened file has its own offset, so a
 * shell writing to the same file after Zi (`{ zi …; echo; } > out`) would overwrite Zi's output.
 * Returns the writer for frames, or undefined where this cannot be done (no `/proc`, stdout a socket,
 * a file or closed): then frames go to fd 1 as before, and only `process.stdout.write` is redirected.
 * Must run before anything reads `process.stdout` (Node creates it on first access, on fd 1).
 */
export function movePrivateStdout(): Writable | undefined {
  let privateFd: number;
  try {
    const stats = fstatSync(1);
    if (!stats.isFIFO() && !isatty(1)) return undefined;
    privateFd = openSync("/proc/self/fd/1", constants.O_WRONLY);
  } catch {
    return undefined; // not Linux, or fd 1 closed
  }
  closeSync(1);
  // A stderr that is a regular file is not reopened either (its own offset would overwrite the log),
  // nor a socket (it cannot be): fd 1 is then /dev/null, and children spawned through Node still get
  // fd 2 as their stdout (keepChildrenOffStdout).
  const replacement = (stderrIsStream() ? reopenAsFd1("/proc/self/fd/2") : undefined) ?? reopenAsFd1("/dev/null");
  if (replacement === undefined) {
    // fd 1 could not be refilled; leave it free rather than guess. Frames still use the private copy.
    process.stderr.write("zi: could not point fd 1 at stderr; child processes that inherit stdout write nowhere\n");
  }
  return writerFor(privateFd);
}

function stderrIsStream(): boolean {
  try {
    return fstatSync(2).isFIFO() || isatty(2);
  } catch {
    return false;
  }
}

/** Opens `path` and keeps it only if it became fd 1 (the lowest free descriptor after the close). */
function reopenAsFd1(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY);
  } catch {
    return undefined;
  }
  if (fd === 1) return fd;
  closeSync(fd);
  return undefined;
}

/** The same kind of stream Node would build for stdout on that descriptor (a pipe or a terminal). */
function writerFor(fd: number): Writable {
  if (isatty(fd)) return new TtyWriteStream(fd);
  return new Socket({ fd, readable: false, writable: true });
}

type Stdio = string | readonly unknown[] | undefined;

/** A child's stdio with its stdout moved from Zi's fd 1 (the protocol) to Zi's fd 2. */
function offProtocolStdout(stdio: Stdio): Stdio {
  const entries = typeof stdio === "string" ? [stdio, stdio, stdio] : stdio;
  if (!Array.isArray(entries)) return stdio;
  const out = entries[1];
  if (out !== "inherit" && out !== 1 && out !== process.stdout) return stdio;
  const moved = [...entries];
  moved[1] = 2;
  return moved;
}

/** The options object of a child_process call, wherever in its arguments it is. */
function withStdioMoved(args: unknown[]): unknown[] {
  const index = args.findIndex((arg, i) => i > 0 && typeof arg === "object" && arg !== null && !Array.isArray(arg));
  if (index === -1) return args;
  const options = args[index] as { stdio?: Stdio };
  const stdio = offProtocolStdout(options.stdio);
  if (stdio === options.stdio) return args;
  const moved = [...args];
  moved[index] = { ...options, stdio };
  return moved;
}

/**
 * Child processes started through Node's `child_process` with an inherited stdout get Zi's stderr in
 * its place. Where fd 1 could not be made private (stdout a socket, as Node's own `spawn` creates; or
 * no `/proc`) this is the only protection; where it could, it still sends such output to stderr when
 * fd 1 had to become /dev/null (a stderr that cannot be reopened). Covered: every asynchronous spawn (`spawn`, `exec`, `execFile`, `fork`) goes through
 * `ChildProcess.prototype.spawn`, and the synchronous ones are wrapped one by one. Native code and
 * worker threads that spawn by other means are not covered (docs/protocol.md says so).
 */
export function keepChildrenOffStdout(childProcess: typeof import("node:child_process"), syncExports: () => void): void {
  const prototype = childProcess.ChildProcess.prototype as unknown as { spawn(options: { stdio?: Stdio }): unknown };
  const spawn = prototype.spawn;
  prototype.spawn = function (this: unknown, options: { stdio?: Stdio }) {
    return spawn.call(this, options && { ...options, stdio: offProtocolStdout(options.stdio) });
  };
  const exports = childProcess as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ["spawnSync", "execSync", "execFileSync"]) {
    const original = exports[name]!;
    exports[name] = (...args: unknown[]) => original(...withStdioMoved(args));
  }
  syncExports();
}
