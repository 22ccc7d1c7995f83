import type { FieldProblem, OperationErrorCode, ProtocolErrorCode } from "../core/kernel/rpc-error.js";

/** Codes the client adds: the connection ended, or Zi broke the framing contract (lost frame, bad JSON). */
export type ClientErrorCode = "connection_closed" | "protocol_violation";
export type ZiErrorCode = OperationErrorCode | ProtocolErrorCode | ClientErrorCode;

/**
 * Where the failure came from: an `ok: false` response, a `protocol_error` frame, the client's own
 * check before sending (e.g. a command not in `command.list`), or the connection.
 */
export type ZiErrorSource = "response" | "protocol_error" | "client" | "connection";

/**
 * Every rejection of ZiClient. `applied` is what the protocol lets a client conclude: `"no"` means the
 * request definitely had no effect (protocol errors, `capacity`, `not_found`, local refusals);
 * `"unknown"` means it may have (an `operation_failed`, or a connection lost before the response).
 */
export class ZiRpcError extends Error {
  constructor(
    readonly code: ZiErrorCode,
    message: string,
    readonly applied: "no" | "unknown",
    readonly source: ZiErrorSource,
    readonly details?: readonly FieldProblem[] | Record<string, unknown>,
    readonly method?: string,
  ) {
    super(method ? `${method}: ${message}` : message);
    this.name = "ZiRpcError";
  }

  /** The `field`s a parameter error named (`params.text`, ...); empty for other errors. */
  get fields(): string[] {
    return Array.isArray(this.details) ? this.details.map((problem) => problem.field) : [];
  }
}
