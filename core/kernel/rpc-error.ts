/**
 * Every code Zi puts on the wire. Operation codes travel in `response.error`; protocol codes in
 * `protocol_error.error`. Keeping both in one union lets every layer throw the same class.
 */
export type OperationErrorCode = "capacity" | "not_found" | "operation_failed";
export type ProtocolErrorCode =
  | "parse_error"
  | "invalid_request"
  | "unsupported_version"
  | "unknown_method"
  | "invalid_framing";
export type RpcErrorCode = OperationErrorCode | ProtocolErrorCode;

export interface FieldProblem {
  field: string;
  problem: string;
}

const OPERATION_CODES: ReadonlySet<RpcErrorCode> = new Set(["capacity", "not_found", "operation_failed"]);

/**
 * The one error class of Zi. A known failure carries its protocol code and a client-safe message.
 * Anything thrown that is not an RpcError is an internal fault: the kernel logs it to stderr and
 * answers with a generic message, so internals never reach the client.
 */
export class RpcError extends Error {
  constructor(
    readonly code: RpcErrorCode,
    message: string,
    readonly details?: readonly FieldProblem[] | Record<string, unknown>,
  ) {
    super(message);
    this.name = "RpcError";
  }

  get isOperationError(): boolean {
    return OPERATION_CODES.has(this.code);
  }

  /** `applied` (docs/protocol.md): the protocol promises non-application only for capacity and not_found. */
  get applied(): "no" | "unknown" {
    return this.code === "operation_failed" ? "unknown" : "no";
  }
}
