import type { WireTypes } from "./wire-types.js";

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
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  "x-maxBytes"?: number;
  /** Zi's own: the summed byte length a rule bounds (session.prompt's images together). */
  "x-maxTotalBytes"?: number;
  contentEncoding?: string;
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

/** Type-level only: the key of the compiler's record of what a `Schema<T>` describes. Never a value. */
export declare const SCHEMA_VALUE: unique symbol;

/**
 * A JSON Schema that also tells the compiler which TypeScript type its values have (as tRPC's
 * `.output()` does). Built only with the helpers below, never written as a bare literal: a method's
 * `result` must be one, so `@RpcMethod` can check at compile time that `handle()` returns that type.
 * The record exists for the compiler alone; at run time it is the plain schema object.
 */
export interface Schema<T> extends JsonSchema {
  readonly [SCHEMA_VALUE]: (value: T) => T;
}

/** The TypeScript type a schema describes (`unknown` for a bare JsonSchema). */
export type SchemaValue<S> = S extends Schema<infer T> ? T : unknown;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
/** The value of a closed object schema with these properties (`O` the optional ones). */
export type ObjectOf<P extends Record<string, JsonSchema>, O extends keyof P> = [keyof P] extends [never]
  ? Record<string, never>
  : Simplify<{ -readonly [K in Exclude<keyof P, O>]: SchemaValue<P[K]> } & { -readonly [K in O]?: SchemaValue<P[K]> }>;
type Json = string | number | boolean | null;

const typed = <T>(schema: JsonSchema): Schema<T> => schema as Schema<T>;

/** A reference into the protocol's shared definitions (`$defs`: core/wire/wire-schemas.ts, event-schemas.ts). */
export const ref = <N extends keyof WireTypes>(name: N): Schema<WireTypes[N]> => typed({ $ref: `#/$defs/${name}` });
export const str: Schema<string> = typed({ type: "string" });
export const bool: Schema<boolean> = typed({ type: "boolean" });
export const count: Schema<number> = typed({ type: "integer", minimum: 0 });
/** A number (not necessarily an integer), at least `minimum` when given. */
export const num = (minimum?: number): Schema<number> => typed(minimum === undefined ? { type: "number" } : { type: "number", minimum });
/** Any JSON value, described in words only (an extension's own evidence, a pi-ai content block). */
export const anyValue = (description?: string): Schema<unknown> => typed(description === undefined ? {} : { description });
/** One of these exact values. */
export const literal = <const V extends readonly Json[]>(...values: V): Schema<V[number]> => typed(values.length === 1 ? { const: values[0] } : { enum: values });
export const arrayOf = <T>(items: Schema<T>, bounds: { minItems?: number; maxItems?: number } = {}): Schema<T[]> => typed({ type: "array", items, ...bounds });
export const nullable = <T>(schema: Schema<T>): Schema<T | null> => typed({ anyOf: [schema, { type: "null" }] });
/** Exactly one of the alternatives. */
export const oneOf = <S extends readonly Schema<any>[]>(...schemas: S): Schema<SchemaValue<S[number]>> => typed({ oneOf: [...schemas] });
/** Adds a description (shown by `zi schema`) to a schema, keeping its type. */
export const described = <T>(description: string, schema: Schema<T>): Schema<T> => typed({ description, ...schema });

/** A closed object: every listed property, `optional` ones may be absent, nothing else. */
export function closed<P extends Record<string, JsonSchema>, O extends keyof P & string = never>(properties: P, optional: readonly O[] = []): Schema<ObjectOf<P, O>> {
  return typed({ type: "object", properties, required: Object.keys(properties).filter((key) => !optional.includes(key as O)), additionalProperties: false });
}

/** An open object: the listed properties are checked, others may follow (pi-ai messages, journal entries). */
export function open<P extends Record<string, JsonSchema>, O extends keyof P & string = never>(properties: P, optional: readonly O[] = []): Schema<ObjectOf<P, O> & Record<string, unknown>> {
  return typed({ type: "object", properties, required: Object.keys(properties).filter((key) => !optional.includes(key as O)) });
}

/** The empty result `{}`. */
export const EMPTY_RESULT: Schema<Record<string, never>> = closed({});

/** An indexed page result: `{ start, total, nextStart, [key]: items }`. */
export const pageOf = <K extends string, T>(key: K, item: Schema<T>, max: number) =>
  closed({ start: count, total: count, nextStart: nullable(count), [key]: arrayOf(item, { maxItems: max }) } as {
    start: Schema<number>;
    total: Schema<number>;
    nextStart: Schema<number | null>;
  } & { [P in K]: Schema<T[]> });
