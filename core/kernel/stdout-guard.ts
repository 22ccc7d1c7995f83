import type { OutputSink } from "./output-sink.js";
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import { keepChildrenOffStdout, movePrivateStdout } from "./private-stdout.js";

/**
 * stdout belongs to the protocol. Importing this module (first thing in bin/zi-cli.ts, before anything
 * else loads) captures the real stdout writer for frames and points `process.stdout.write` at stderr,
 * so a stray `console.log` in an extension or a dependency can never corrupt the frame stream.
 */
// Frames get a private copy of fd 1 where Linux allows it (fd 1 itself then is stderr, for children).
const protocolStream = movePrivateStdout();
const stdout = process.stdout;
const protocolTarget = protocolStream ?? stdout;
const protocolWrite = protocolTarget.write.bind(protocolTarget) as (chunk: string | Buffer, callback: (error?: Error | null) => void) => boolean;
protocolStream?.on("error", () => {});
keepChildrenOffStdout(childProcess, syncBuiltinESMExports);
stdout.write = ((chunk: never, encoding?: never, callback?: never) =>
  process.stderr.write(chunk, encoding, callback)) as typeof stdout.write;
// A reader that went away surfaces as a failed write callback; without a listener EPIPE would crash Zi.
stdout.on("error", () => {});

/** The only way to write to the real stdout once the guard is installed. */
export function protocolSink(): OutputSink {
  return { write: (data, done) => void protocolWrite(data, done) };
}

/**
 * The real stdout as a terminal stream (columns, rows), for the interactive mode, whose screen is its
 * output; undefined when stdout is no terminal. Writes still belong to that one owner.
 */
export function protocolTerminal(): (NodeJS.WritableStream & { columns?: number; rows?: number; isTTY?: boolean; getWindowSize?: () => [number, number] }) | undefined {
  const target = protocolTarget as typeof protocolTarget & { isTTY?: boolean };
  return target.isTTY ? target : undefined;
}
