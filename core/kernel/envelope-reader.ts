import { assertJsonDepth, type JsonDepthError } from "../wire/json-depth.js";
import { RpcError } from "./rpc-error.js";
import { sliceChars } from "../wire/utf8-clip.js";

const ENVELOPE_KEYS: ReadonlySet<string> = new Set(["version", "id", "method", "params"]);
const CANONICAL_HEAD = '{"version":1,"id":"';
const CANONICAL_MIDDLE = '","method":"';
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;
export const SUPPORTED_VERSIONS: readonly number[] = [1];

export interface Request {
  id: string;
  method: string;
  params: Record<string, unknown> | undefined;
}

/** A rejected record: the error to report and the id to report it under (null when none could be read). */
export class EnvelopeRejection {
  constructor(
    readonly id: string | null,
    readonly error: RpcError,
  ) {}
}

/**
 * Reads one record as a request envelope: parses and checks it, and holds no request itself. Checks
 * run in a fixed order so that every malformed record gets one predictable code: JSON → object →
 * nesting depth → version → id → method → params.
 */
export class EnvelopeReader {
  private lastMethod = "";

  constructor(
    private readonly maxIdBytes: number,
    private readonly maxDepth?: number,
  ) {}

  parse(line: string): Request | EnvelopeRejection {
    const canonical = this.canonical(line);
    if (canonical !== undefined) return canonical;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return new EnvelopeRejection(null, new RpcError("parse_error", "record is not valid JSON"));
    }
    // Valid JSON that is only too deep still has a readable id, so the bound is checked apart from parsing.
    let tooDeep: JsonDepthError | undefined;
    try {
      assertJsonDepth(value, this.maxDepth);
    } catch (error) {
      tooDeep = error as JsonDepthError;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return new EnvelopeRejection(null, new RpcError("parse_error", "record is not a JSON object"));
    }
    const record = value as Record<string, unknown>;
    const id = this.readId(record.id);
    if (tooDeep) {
      const problem = `nests deeper than ${tooDeep.maxDepth} levels`;
      // Named like a params problem: the parameter that holds the too-deep value, `params.<name>`.
      const at = tooDeep.topLevelKey === undefined ? "record" : truncate(tooDeep.topLevelKey);
      const name = tooDeep.topLevelKey === "params" && tooDeep.secondKey !== undefined ? `${at}.${truncate(tooDeep.secondKey)}` : at;
      return rejection(id, "invalid_request", tooDeep.message, [field(name, problem)]);
    }
    if (!("version" in record)) return rejection(id, "invalid_request", "version is required", [field("version", "is required")]);
    if (record.version !== 1) {
      if (typeof record.version !== "number") {
        return rejection(id, "invalid_request", "version must be a number", [field("version", "must be a number")]);
      }
      return rejection(id, "unsupported_version", "unsupported protocol version", { supported: SUPPORTED_VERSIONS });
    }
    if (id === null) {
      return rejection(id, "invalid_request", "id must be a non-empty string of at most 256 UTF-8 bytes", [
        field("id", `must be a non-empty string of at most ${this.maxIdBytes} UTF-8 bytes`),
      ]);
    }
    if (typeof record.method !== "string") {
      return rejection(id, "invalid_request", "method must be a string", [field("method", "must be a string")]);
    }
    const params = record.params;
    if (params !== undefined && (params === null || typeof params !== "object" || Array.isArray(params))) {
      return rejection(id, "invalid_request", "params must be an object", [field("params", "must be an object")]);
    }
    for (const key in record) {
      if (!ENVELOPE_KEYS.has(key)) {
        return rejection(id, "invalid_request", "unknown envelope field", [field(truncate(key), "unknown field")]);
      }
    }
    return { id, method: record.method, params: params as Record<string, unknown> | undefined };
  }

  /**
   * A request without params written exactly as `{"version":1,"id":"<id>","method":"<method>"}`, with no
   * whitespace and no escape in either string, read without JSON.parse (the better part of admitting a
   * pipelined get_state). For exactly that text JSON.parse would give the same three members and every
   * check below would pass; anything else, or an id the checks would reject, takes the general path.
   */
  private canonical(line: string): Request | undefined {
    if (!line.startsWith(CANONICAL_HEAD)) return undefined;
    const idStart = CANONICAL_HEAD.length;
    const idEnd = line.indexOf('"', idStart);
    if (idEnd === -1 || !line.startsWith(CANONICAL_MIDDLE, idEnd)) return undefined;
    const methodStart = idEnd + CANONICAL_MIDDLE.length;
    const methodEnd = line.length - 2;
    if (methodEnd < methodStart || line.charCodeAt(methodEnd) !== QUOTE || line.charCodeAt(methodEnd + 1) !== CLOSE_BRACE) return undefined;
    if (!plainString(line, idStart, idEnd) || !plainString(line, methodStart, methodEnd)) return undefined;
    const id = this.readId(line.slice(idStart, idEnd));
    if (id === null) return undefined;
    return { id, method: this.methodName(line, methodStart, methodEnd), params: undefined };
  }

  /** line[start, end) as a string: the previous record's method name when it is the same (it nearly always is). */
  private methodName(line: string, start: number, end: number): string {
    const last = this.lastMethod;
    if (last.length === end - start && line.startsWith(last, start)) return last;
    return (this.lastMethod = line.slice(start, end));
  }

  private readId(id: unknown): string | null {
    if (typeof id !== "string" || id.length === 0) return null;
    // A UTF-16 unit is at most 3 UTF-8 bytes: short ids skip the byte count.
    if (id.length * 3 > this.maxIdBytes && Buffer.byteLength(id) > this.maxIdBytes) return null;
    return id;
  }
}

/** True when line[start, end) is a JSON string body without escapes: no quote, backslash or control character. */
function plainString(line: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = line.charCodeAt(i);
    if (code < 0x20 || code === QUOTE || code === BACKSLASH) return false;
  }
  return true;
}

// A module function rather than a closure over `id` in parse(), which runs for every record.
function rejection(id: string | null, code: "invalid_request" | "unsupported_version", message: string, details: object): EnvelopeRejection {
  return new EnvelopeRejection(id, new RpcError(code, message, details as never));
}

function field(name: string, problem: string) {
  return { field: name, problem };
}

function truncate(key: string): string {
  return key.length > 64 ? `${sliceChars(key, 64)}…` : key;
}
