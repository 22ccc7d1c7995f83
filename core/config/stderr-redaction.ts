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

/** Sets the redaction every later stderr write goes through. */
export function redactStderr(redact: Redact): void {
  stderrRedaction = redact;
}
