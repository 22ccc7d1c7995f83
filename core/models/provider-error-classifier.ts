import type * as PiAi from "@mariozechner/pi-ai";
import type { ProviderErrorKind } from "./model-runtime.js";
import { FAUX_PROVIDER } from "./faux-models.js";
import { FAUX_ERROR_DIAGNOSTIC } from "./faux-responder.js";
import type { PiAiLight } from "./pi-ai-loader.js";

// Provider SDKs surface transient failures only as text: "429 Rate limit reached", "503 ...",
// "Connection error.", undici's "fetch failed" / "terminated", Node's socket error codes.
const RETRYABLE_PATTERNS: readonly RegExp[] = [
  /\b(?:408|429|500|502|503|504|529)\b/,
  /rate.?limit/i,
  /too many requests/i,
  /overloaded/i,
  /service.?unavailable/i,
  /bad gateway/i,
  /gateway.?time.?out/i,
  /internal.?server.?error/i,
  /\b(?:ECONNRESET|ECONNREFUSED|ECONNABORTED|ETIMEDOUT|EPIPE|EAI_AGAIN|UND_ERR_SOCKET)\b/,
  /fetch failed/i,
  /connection.?(?:error|refused|reset|closed)/i,
  /network.?error/i,
  /socket hang up/i,
  /other side closed/i,
  /\bterminated\b/i,
  /timed?.?out|timeout/i,
];

/**
 * Provider error types (the `type` of a streamed error object, HTTP status 200) that mean "try again":
 * OpenAI's `server_error`, Anthropic's `overloaded_error` and `api_error` (an internal error), and the
 * rate limits. Errors about the request itself (`invalid_request_error`, `authentication_error`) are not.
 */
const RETRYABLE_ERROR_TYPES: ReadonlySet<string> = new Set(["server_error", "overloaded_error", "api_error", "rate_limit_error", "rate_limit_exceeded", "internal_server_error", "service_unavailable"]);
const STREAM_ERROR_DIAGNOSTIC = "zi.stream_error_type";

/** Marks a failed message with the error type its response body carried (model-registry.ts). */
export function streamErrorDiagnostic(errorType: string): NonNullable<PiAi.AssistantMessage["diagnostics"]>[number] {
  return { type: STREAM_ERROR_DIAGNOSTIC, timestamp: Date.now(), details: { errorType } };
}

/**
 * Sorts a failed assistant message into context overflow (compact and retry), transient (retry
 * with backoff) or fatal. Scripted faux errors carry their verdict in a diagnostic instead of text,
 * and only the faux provider may use that marker.
 */
export class ProviderErrorClassifier {
  classify(piAi: PiAiLight, message: PiAi.AssistantMessage, model: PiAi.Model<PiAi.Api>): ProviderErrorKind {
    if (piAi.isContextOverflow(message, model.contextWindow)) return "context_overflow";
    if (model.provider === FAUX_PROVIDER) return this.fauxVerdict(message);
    const errorType = message.diagnostics?.find((diagnostic) => diagnostic.type === STREAM_ERROR_DIAGNOSTIC)?.details?.errorType;
    if (typeof errorType === "string" && RETRYABLE_ERROR_TYPES.has(errorType)) return "retryable";
    const text = message.errorMessage ?? "";
    return RETRYABLE_PATTERNS.some((pattern) => pattern.test(text)) ? "retryable" : "fatal";
  }

  private fauxVerdict(message: PiAi.AssistantMessage): ProviderErrorKind {
    const marker = message.diagnostics?.find((diagnostic) => diagnostic.type === FAUX_ERROR_DIAGNOSTIC);
    return marker?.details?.retryable === true ? "retryable" : "fatal";
  }
}
