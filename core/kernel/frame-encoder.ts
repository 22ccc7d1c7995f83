import type { RpcLimits } from "../wire/limits.js";
import { clipJson, standIn } from "./json-clip.js";
import type { RpcError } from "./rpc-error.js";
import { ResponseBytes } from "./response-bytes.js";

/** A frame's members (its JSON without the opening brace), with their UTF-8 length when known. */
export interface EncodedFrame {
  readonly members: string;
  readonly bytes?: number;
}

/** A result's JSON and, when known, its UTF-8 length. */
interface EncodedResult {
  readonly json: string;
  readonly bytes: number | undefined;
}

const EMPTY_RESULT: EncodedResult = { json: "{}", bytes: 2 };
/** `{"type":"session_event","event":` and the closing brace around an event's JSON. */
const SESSION_EVENT_WRAPPER_BYTES = 33;
/** Room left in a record for what the writer adds (`{"version":1,"sequence":N,` and LF). */
const ENVELOPE_ROOM = 64;

export type LimitsForEncoding = Pick<RpcLimits, "maxRecordBytes" | "maxStandInBytes" | "maxErrorDetails" | "maxErrorDetailsBytes">;

/**
 * Every frame body the connection writes, as JSON, with the encoding shortcuts in one place: a
 * response is assembled from a cached method name and the result's JSON, a frozen result (the
 * session's deep-frozen state snapshots) is encoded to UTF-8 once and answered as bytes, and a size
 * check counts bytes only when the text could exceed the bound. Bodies that would not fit a
 * record become what the protocol says instead (a clipped event stand-in, an `operation_failed`).
 */
export class FrameEncoder {
  private readonly frozenJson = new WeakMap<object, Buffer>();
  /** The JSON of each method name answered so far (a handful of names, each a protocol constant). */
  private readonly methodJson = new Map<string, string>();
  /** `,"method":<name>,"ok":true,"result":` as UTF-8, per method name, for responses carrying a frozen result. */
  private readonly methodTails = new Map<string, Buffer>();

  constructor(private readonly limits: LimitsForEncoding) {}

  /** Any frame given as an object without `version`/`sequence`. */
  frame(body: object): string {
    return JSON.stringify(body);
  }

  /**
   * An `ok` response's members, or `undefined` when it would exceed the record bound. Throws what
   * JSON.stringify throws for a result it cannot encode (a BigInt, a cycle): the handler's fault.
   */
  okResponse(id: string, method: string, result: unknown): EncodedFrame | ResponseBytes | undefined {
    if (typeof result === "object" && result !== null && Object.isFrozen(result)) return this.frozenResponse(id, method, result);
    let methodJson = this.methodJson.get(method);
    if (methodJson === undefined) this.methodJson.set(method, (methodJson = JSON.stringify(method)));
    const head = `"type":"response","id":${JSON.stringify(id)},"method":${methodJson},"ok":true,"result":`;
    const encoded = result === undefined || result === null ? EMPTY_RESULT : { json: JSON.stringify(result), bytes: undefined };
    const members = `${head}${encoded.json}}`;
    if (this.exceedsRecord(members)) return undefined;
    return { members, bytes: Buffer.byteLength(head) + (encoded.bytes ?? Buffer.byteLength(encoded.json)) + 1 };
  }

  errorResponse(id: string, method: string, error: RpcError): string {
    return JSON.stringify({ type: "response", id, method, ok: false, error: { code: error.code, message: error.message, applied: error.applied } });
  }

  protocolError(id: string | null, error: RpcError, fatal = false): string {
    return JSON.stringify({ type: "protocol_error", id, error: this.errorBody(error), fatal });
  }

  /** A `session_event` body; one that would not fit a record is a clipped stand-in (`clipped` says so). */
  sessionEvent(event: object): { body: string; clipped: boolean } {
    const body = JSON.stringify({ type: "session_event", event });
    if (!this.exceedsRecord(body)) return { body, clipped: false };
    const clipped = standIn(event, Buffer.byteLength(body) - SESSION_EVENT_WRAPPER_BYTES, this.limits.maxStandInBytes);
    return { body: JSON.stringify({ type: "session_event", event: clipped }), clipped: true };
  }

  /**
   * A frozen result is immutable by contract (the session hands out deep-frozen state snapshots), so
   * its JSON is encoded to UTF-8 once and reused for every response that carries the same object; the
   * response is written from its parts (ResponseBytes), never built as a string.
   */
  private frozenResponse(id: string, method: string, result: object): ResponseBytes | undefined {
    let json = this.frozenJson.get(result);
    if (json === undefined) {
      json = Buffer.from(JSON.stringify(result));
      this.frozenJson.set(result, json);
    }
    let tail = this.methodTails.get(method);
    if (tail === undefined) this.methodTails.set(method, (tail = Buffer.from(`,"method":${JSON.stringify(method)},"ok":true,"result":`)));
    const response = new ResponseBytes(id, ResponseBytes.plainId(id), tail, json);
    return response.bytes > this.limits.maxRecordBytes - ENVELOPE_ROOM ? undefined : response;
  }

  /** Counts bytes only when the text could be over the bound (a UTF-16 unit is at most 3 UTF-8 bytes). */
  private exceedsRecord(body: string): boolean {
    const max = this.limits.maxRecordBytes - ENVELOPE_ROOM;
    return body.length * 3 > max && Buffer.byteLength(body) > max;
  }

  /**
   * `details` is bounded by construction: at most maxErrorDetails entries and about maxErrorDetailsBytes
   * of JSON; a list cut short carries `detailsTruncated: true`.
   */
  private errorBody(error: RpcError) {
    const { details } = error;
    const { maxErrorDetails, maxErrorDetailsBytes } = this.limits;
    if (details === undefined) return { code: error.code, message: error.message };
    if (!Array.isArray(details)) return { code: error.code, message: error.message, details };
    const shown: unknown[] = [];
    let bytes = 2;
    for (const detail of details) {
      if (shown.length >= maxErrorDetails) break;
      const entry = clipJson(detail, maxErrorDetailsBytes / 8);
      bytes += Buffer.byteLength(JSON.stringify(entry)) + 1;
      if (bytes > maxErrorDetailsBytes) break;
      shown.push(entry);
    }
    return shown.length < details.length
      ? { code: error.code, message: error.message, details: shown, detailsTruncated: true }
      : { code: error.code, message: error.message, details: shown };
  }
}
