/**
 * Flattens an error to one line: loader errors carry a code frame and the file position on later lines.
 * Duck-typed, because an extension's errors may come from another realm's Error class.
 */
export function oneLine(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  const text = typeof message === "string" ? message : String(error);
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim() || "unknown error";
}
