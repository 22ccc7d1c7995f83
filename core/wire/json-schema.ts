/**
 * The JSON Schema (draft 2020-12) subset Zi emits and SchemaChecker understands, plus one extension
 * keyword: `x-maxBytes`, the UTF-8 byte bound of a string (the protocol's bounds are bytes).
 */
export interface JsonSchema {
  $schema?: string;
  $id?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  enum?: readonly unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  "x-maxBytes"?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  not?: JsonSchema;
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  default?: unknown;
  examples?: unknown[];
}

export type JsonType = "object" | "array" | "string" | "integer" | "number" | "boolean" | "null";

/** One problem SchemaChecker found: `field` is the dotted path from the checked value ("" for itself). */
export interface SchemaProblem {
  field: string;
  problem: string;
}

/** A reference into the protocol's shared definitions (`$defs`, see wire-schemas.ts). */
export const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });
export const str: JsonSchema = { type: "string" };
export const bool: JsonSchema = { type: "boolean" };
export const count: JsonSchema = { type: "integer", minimum: 0 };

/** A closed object: every listed property, `optional` ones may be absent, nothing else. */
export function closed(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  return { type: "object", properties, required: Object.keys(properties).filter((key) => !optional.includes(key)), additionalProperties: false };
}

/** An open object: the listed properties are checked, others may follow (pi-ai messages, journal entries). */
export function open(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  return { type: "object", properties, required: Object.keys(properties).filter((key) => !optional.includes(key)) };
}

/** The empty result `{}`. */
export const EMPTY_RESULT: JsonSchema = closed({});

/** An indexed page result: `{ start, total, nextStart, [key]: items }`. */
export const pageOf = (key: string, item: JsonSchema, max: number): JsonSchema =>
  closed({ start: count, total: count, nextStart: { type: ["integer", "null"], minimum: 0 }, [key]: { type: "array", items: item, maxItems: max } });
