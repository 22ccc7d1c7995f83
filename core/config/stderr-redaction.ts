/**
 * stderr is no place for secrets: a dependency's own `console.error` (a provider SDK printing a
 * malformed SSE line with a reflected Authorization header) must not print a key. Importing this
 * module wraps `process.stderr.write`; every later write goes through the redaction set with
 * `redactStderr` (the credential store's, once it exists), the redirected stdout writes and
 * `console.*` included. Frames get the same redaction where they are built.
 */
type Redact = (text: string) => string;
let stderrRedaction: Redact | undefined;
const stderr = process.stderr;
const stderrWrite = stderr.write.bind(stderr) as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;
/**
 * What may wait in stderr's buffer. stderr is a pipe written asynchronously: with nobody reading it,
 * every line (an MCP server flooding its own stderr into Zi's included) would wait in memory. Past the
 * bound, writes are dropped and counted, and the count is written once stderr drains.
 */
export const MAX_STDERR_BACKLOG_BYTES = 4 * 1024 * 1024;
let dropped = 0;
stderr.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
  if (stderr.writableLength > MAX_STDERR_BACKLOG_BYTES) {
    if (dropped === 0) {
      stderr.once("drain", () => {
        const note = `zi: ${dropped} bytes of stderr were dropped while it was not being read\n`;
        dropped = 0;
        stderrWrite(note);
      });
    }
    dropped += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") queueMicrotask(() => (done as () => void)());
    return false;
  }
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

/** Sets the redaction every later stderr write goes through. */
export function redactStderr(redact: Redact): void {
  stderrRedaction = redact;
}
