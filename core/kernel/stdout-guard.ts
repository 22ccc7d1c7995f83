import type { OutputSink } from "./output-sink.js";

/**
 * stdout belongs to the protocol. Importing this module (first thing in bin/zi-cli.ts, before anything
 * else loads) captures the real stdout writer for frames and points `process.stdout.write` at stderr,
 * so a stray `console.log` in an extension or a dependency can never corrupt the frame stream.
 */
const stdout = process.stdout;
const protocolWrite = stdout.write.bind(stdout) as (chunk: string, callback: (error?: Error | null) => void) => boolean;
stdout.write = ((chunk: never, encoding?: never, callback?: never) =>
  process.stderr.write(chunk, encoding, callback)) as typeof stdout.write;
// A reader that went away surfaces as a failed write callback; without a listener EPIPE would crash Zi.
stdout.on("error", () => {});

/** The only way to write to the real stdout once the guard is installed. */
export function protocolSink(): OutputSink {
  return { write: (data, done) => void protocolWrite(data, done) };
}
