// Decorated method classes need the Reflect polyfill before they load (tsyringe checks at import time).
import "reflect-metadata";
import { composeMethods } from "../kernel/method-catalog.js";
import type { MethodFamily } from "../kernel/method-family.js";
import type { RpcErrorCode } from "../kernel/rpc-error.js";
import { RPC_LIMITS } from "../wire/limits.js";
import { NestedDefs, paramsSchema } from "./dto-schema-builder.js";
import { FRAME_SCHEMAS, LIMITS_SCHEMA } from "../wire/frame-schemas.js";
import type { JsonSchema, SchemaProblem } from "../wire/json-schema.js";
import { WIRE_DEFS } from "../wire/wire-schemas.js";
import type { WireTypes } from "../wire/wire-types.js";
import { EVENT_DEFS } from "../wire/event-schemas.js";
import { SchemaChecker } from "./schema-checker.js";

export interface MethodDescription {
  name: string;
  summary: string;
  /** Derived from the method's class-validator DTO. */
  params: JsonSchema;
  /** Declared next to the method, in its @RpcMethod. */
  result: JsonSchema;
  /** A concurrent method lets later requests be admitted while it runs; its response may overtake theirs. */
  concurrent: boolean;
  /**
   * The method needs Zi's deferred startup (plugins and extensions loading after `ready`): admission
   * holds at it, in input order, until startup has finished. The others are answered at once.
   */
  awaitsStartup: boolean;
  /** `interrupt`: may use the reserved slot when the ordinary slots are full. */
  slot: "ordinary" | "interrupt";
  /** Every code an answer to this method may carry (protocol_error and response codes). */
  errors: RpcErrorCode[];
}

export interface ProtocolDescription {
  $schema: string;
  title: string;
  protocolVersion: 1;
  conventions: Record<string, string>;
  limits: Record<string, number>;
  errorCodes: { code: RpcErrorCode; frame: "response" | "protocol_error"; applied?: "no" | "unknown"; fatal?: boolean }[];
  methods: MethodDescription[];
  frames: Record<string, JsonSchema>;
  $defs: Record<string, JsonSchema>;
}

const ALWAYS: RpcErrorCode[] = ["invalid_request", "capacity", "operation_failed"];
const CODE_ORDER: RpcErrorCode[] = ["invalid_request", "capacity", "not_found", "operation_failed"];

/**
 * The machine-readable protocol: every registered method with params derived from its DTO, its result
 * and error codes, the limits, and the frame envelopes. `zi schema` prints it as JSON;
 * test/core/schema/ sends boundary samples to the built zi so the description cannot drift from the code.
 */
export function generateProtocolSchema(families: readonly MethodFamily[]): ProtocolDescription {
  // Every name `ref()` may point at is defined (a missing one does not compile).
  const wireDefs: { [K in keyof WireTypes]: JsonSchema } = { ...WIRE_DEFS, ...EVENT_DEFS, Limits: LIMITS_SCHEMA };
  const nested = new NestedDefs(new Set(Object.keys(wireDefs)));
  const methods: MethodDescription[] = composeMethods(families).map((method) => {
    const codes = new Set<RpcErrorCode>([...ALWAYS, ...method.errors]);
    return {
      name: method.name,
      summary: method.summary,
      params: paramsSchema(method.params, nested),
      result: method.result,
      concurrent: method.concurrent,
      awaitsStartup: method.awaitsStartup,
      slot: method.slot,
      errors: CODE_ORDER.filter((code) => codes.has(code)),
    };
  });
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Zi RPC protocol",
    protocolVersion: 1,
    conventions: {
      strings: "minLength/maxLength count code points as validator.js isLength does; x-maxBytes is the UTF-8 byte bound (Buffer.byteLength) and is authoritative.",
      params: "additionalProperties is false everywhere; an optional field is omitted, never null. Omitted params mean {}.",
      errors: "invalid_request arrives as a protocol_error with details [{ field: 'params.<name>', problem }]; the other codes as a response with ok: false.",
      events: "session_event.event is exactly one of the described events (frames.session_event), each a closed object but for pi-ai messages and journal entries.",
    },
    limits: { ...RPC_LIMITS },
    errorCodes: [
      { code: "parse_error", frame: "protocol_error", fatal: false },
      { code: "invalid_request", frame: "protocol_error", fatal: false },
      { code: "unsupported_version", frame: "protocol_error", fatal: false },
      { code: "unknown_method", frame: "protocol_error", fatal: false },
      { code: "invalid_framing", frame: "protocol_error", fatal: true },
      { code: "capacity", frame: "response", applied: "no" },
      { code: "not_found", frame: "response", applied: "no" },
      { code: "operation_failed", frame: "response", applied: "unknown" },
    ],
    methods,
    frames: FRAME_SCHEMAS,
    $defs: { ...wireDefs, ...Object.fromEntries(nested.schemas) },
  };
}

/**
 * Checks `params` against a method's generated schema, as the server would: returns the problems with
 * fields named like the server's `details` (`params.<name>`); an empty list means valid.
 */
export function checkParams(description: ProtocolDescription, method: string, params: unknown): SchemaProblem[] {
  const found = description.methods.find((candidate) => candidate.name === method);
  if (!found) throw new Error(`no method ${method} in the description`);
  return new SchemaChecker(description as JsonSchema).check(found.params, params ?? {}, "params");
}
