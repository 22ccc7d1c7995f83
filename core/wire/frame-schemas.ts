import { RPC_LIMITS } from "./limits.js";
import { SESSION_EVENT_SCHEMA } from "./event-schemas.js";
import type { JsonSchema } from "./json-schema.js";

const frame = (type: string, properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema => {
  const all: Record<string, JsonSchema> = { version: { const: 1 }, sequence: { type: "integer", minimum: 1 }, type: { const: type }, ...properties };
  return { type: "object", properties: all, required: Object.keys(all).filter((key) => !optional.includes(key)), additionalProperties: false };
};

const byteBounded = (max: number): JsonSchema => ({ type: "string", minLength: 1, maxLength: max, "x-maxBytes": max });

/** Every bound as the exact number `ready.limits` carries. */
export const LIMITS_SCHEMA: JsonSchema = {
  type: "object",
  properties: Object.fromEntries(Object.entries(RPC_LIMITS).map(([key, value]) => [key, { const: value }])),
  required: Object.keys(RPC_LIMITS),
  additionalProperties: false,
};

/**
 * The envelopes of both directions. Each is one compact JSON object on one LF-terminated UTF-8 line of
 * at most `limits.maxRecordBytes`. `sequence` runs 1, 2, 3, ... per connection with no gaps.
 */
export const FRAME_SCHEMAS: Record<string, JsonSchema> = {
  request: {
    description: "Client → Zi. `params` may be omitted when the method's params schema requires nothing (it then means {}).",
    type: "object",
    properties: {
      version: { const: 1 },
      id: byteBounded(RPC_LIMITS.maxRequestIdBytes),
      method: { type: "string" },
      params: { type: "object" },
    },
    required: ["version", "id", "method"],
    additionalProperties: false,
  },
  ready: { ...frame("ready", { state: { $ref: "#/$defs/SessionState" }, limits: { $ref: "#/$defs/Limits" } }), description: "Always sequence 1." },
  response: {
    description: "Exactly one per admitted request.",
    oneOf: [
      frame("response", { id: { type: "string" }, method: { type: "string" }, ok: { const: true }, result: { type: "object" } }),
      frame("response", {
        id: { type: "string" },
        method: { type: "string" },
        ok: { const: false },
        error: {
          type: "object",
          properties: { code: { enum: ["capacity", "not_found", "operation_failed"] }, message: { type: "string" }, applied: { enum: ["no", "unknown"] } },
          required: ["code", "message", "applied"],
          additionalProperties: false,
        },
      }),
    ],
  },
  protocol_error: frame("protocol_error", {
    id: { type: ["string", "null"] },
    error: {
      type: "object",
      properties: {
        code: { enum: ["parse_error", "invalid_request", "unsupported_version", "unknown_method", "invalid_framing"] },
        message: { type: "string" },
        details: {
          anyOf: [
            { type: "array", items: { type: "object", properties: { field: { type: "string" }, problem: { type: "string" } }, required: ["field", "problem"], additionalProperties: false } },
            { type: "object" },
          ],
        },
        detailsTruncated: { const: true, description: "present when `details` was cut to maxErrorDetails entries / maxErrorDetailsBytes" },
      },
      required: ["code", "message"],
      additionalProperties: false,
    },
    fatal: { type: "boolean" },
  }),
  session_event: frame("session_event", { event: SESSION_EVENT_SCHEMA }),
};
