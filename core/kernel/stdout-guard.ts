import type { OutputSink } from "./output-sink.js";

/**
 * stdout belongs to the protocol, and stderr is no place for secrets. Importing this module (first thing in bin/zi-cli.ts, before anything else
 * loads) captures the real stdout writer for frames and points `process.stdout.write` at stderr, so a
 * stray `console.log` in an extension or a dependency can never corrupt the frame stream.
 */
const stdout = process.stdout;
const protocolWrite = stdout.write.bind(stdout) as (chunk: string, callback: (error?: Error | null) => void) => boolean;
stdout.write = ((chunk: never, encoding?: never, callback?: never) =>
  process.stderr.write(chunk, encoding, callback)) as typeof stdout.write;
// A reader that went away surfaces as a failed write callback; without a listener EPIPE would crash Zi.
stdout.on("error", () => {});

/**
 * stderr gets the same secret redaction as frames: a dependency's own `console.error` (a provider SDK
 * printing a malformed SSE line with a reflected Authorization header) must not print a key either.
 * Every write goes through here, the redirected stdout writes and `console.*` included.
 */
type Redact = (text: string) => string;
let stderrRedaction: Redact | undefined;
const stderr = process.stderr;
const stderrWrite = stderr.write.bind(stderr) as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;
stderr.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
  const redact = stderrRedaction;
  const binary = typeof chunk !== "string";
  // A string in another encoding (hex, base64) cannot hold a key as text; it passes as it is.
  if (redact && (binary || encoding === undefined || typeof encoding === "function" || encoding === "utf8" || encoding === "utf-8")) {
    const text = binary ? Buffer.from(chunk).toString("utf8") : chunk;
    const clean = redact(text);
    if (clean !== text) return typeof encoding === "function" ? stderrWrite(clean, encoding) : stderrWrite(clean, "utf8", callback);
  }
  return stderrWrite(chunk, encoding, callback);
}) as typeof stderr.write;

/** The only way to write to the real stdout once the guard is installed. */
export function protocolSink(): OutputSink {
  return { write: (data, done) => void protocolWrite(data, done) };
}

/** Sets the redaction every later stderr write goes through (the credential store's, once it exists). */
export function redactStderr(redact: Redact): void {
  stderrRedaction = redact;
}
