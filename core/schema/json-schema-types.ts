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
