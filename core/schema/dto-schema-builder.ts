import { getMetadataStorage } from "class-validator";
import type { ParamsClass } from "../kernel/rpc-method-metadata.js";
import type { JsonSchema } from "../wire/json-schema.js";

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>["getTargetValidationMetadatas"]>[number];
type Rule = (schema: JsonSchema, constraints: readonly unknown[]) => void;

/**
 * class-validator rule name → what it means in JSON Schema. Every rule a params DTO uses must be here:
 * an unknown rule makes `build` throw, so a new validator cannot slip past the generated schema (and the
 * drift test in test/core/schema/ then fails until it is described).
 */
const PROPERTY_RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ["isString", (s) => (s.type = "string")],
  ["isInt", (s) => (s.type = "integer")],
  ["isNumber", (s) => (s.type = "number")],
  ["isBoolean", (s) => (s.type = "boolean")],
  ["isArray", (s) => (s.type = "array")],
  ["arrayMaxSize", (s, [max]) => (s.maxItems = max as number)],
  ["arrayMinSize", (s, [min]) => (s.minItems = min as number)],
  ["isIn", (s, [values]) => (s.enum = [...(values as unknown[])])],
  ["equals", (s, [value]) => (s.const = value)],
  ["min", (s, [min]) => (s.minimum = min as number)],
  ["max", (s, [max]) => (s.maximum = max as number)],
  ["minLength", (s, [min]) => (s.minLength = min as number)],
  ["maxLength", (s, [max]) => (s.maxLength = max as number)],
  ["isLength", (s, [min, max]) => Object.assign(s, { minLength: min as number }, max === undefined ? {} : { maxLength: max as number })],
  ["matches", (s, [pattern]) => (s.pattern = pattern instanceof RegExp ? pattern.source : String(pattern))],
  // A byte bound is also a character bound (every code point takes at least one byte).
  ["maxBytes", (s, [max]) => Object.assign(s, { maxLength: Math.min(s.maxLength ?? Infinity, max as number), "x-maxBytes": max as number })],
]);

/**
 * Rules that relate two fields of the object: expressed as object-level `allOf` members.
 * `nonEmptyUnlessContinue` (session.prompt): `text` may be empty only when `delivery` is `continue`.
 */
const OBJECT_RULES: ReadonlyMap<string, (property: string) => JsonSchema> = new Map([
  [
    "nonEmptyUnlessContinue",
    (property: string): JsonSchema => ({
      if: { properties: { delivery: { not: { const: "continue" } } } },
      then: { properties: { [property]: { not: { const: "" } } } },
    }),
  ],
]);

const CONDITIONAL = "conditionalValidation";
const CUSTOM = "customValidation";

/**
 * Derives the JSON Schema of a params DTO from class-validator's metadata storage, the same metadata
 * the server validates with: no second description to keep in step.
 */
export function paramsSchema(dto: ParamsClass | undefined): JsonSchema {
  const schema: JsonSchema = { type: "object", properties: {}, required: [], additionalProperties: false };
  if (dto === undefined) return schema;
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const metadata of getMetadataStorage().getTargetValidationMetadatas(dto, "", true, false)) {
    const list = byProperty.get(metadata.propertyName) ?? [];
    list.push(metadata);
    byProperty.set(metadata.propertyName, list);
  }
  const allOf: JsonSchema[] = [];
  for (const [property, metadatas] of byProperty) {
    const { schema: propertySchema, optional, nullable, relations } = describeProperty(dto, property, metadatas);
    schema.properties![property] = nullable ? { anyOf: [propertySchema, { type: "null" }] } : propertySchema;
    if (!optional) schema.required!.push(property);
    allOf.push(...relations);
  }
  if (allOf.length > 0) schema.allOf = allOf;
  return schema;
}

function describeProperty(dto: ParamsClass, property: string, metadatas: ValidationMetadata[]) {
  const schema: JsonSchema = {};
  const relations: JsonSchema[] = [];
  let optional = false;
  let nullable = false;
  for (const metadata of metadatas) {
    const where = `${dto.name}.${property}`;
    if (metadata.each) throw new Error(`${where}: "each" validation has no JSON Schema mapping yet`);
    if (metadata.type === CONDITIONAL) {
      // Zi's Optional() is ValidateIf(value !== undefined): absent is fine, null is not. class-validator's
      // IsOptional also lets null through.
      optional = true;
      nullable ||= metadata.name === "isOptional";
      continue;
    }
    if (metadata.type !== CUSTOM || metadata.name === undefined) {
      throw new Error(`${where}: validation of type "${metadata.type}" has no JSON Schema mapping`);
    }
    const rule = PROPERTY_RULES.get(metadata.name);
    const relation = OBJECT_RULES.get(metadata.name);
    // A plugin's own validator describes itself: `ValidateBy({ name, constraints: [{ jsonSchema }] })`.
    const carried = (metadata.constraints?.[0] as { jsonSchema?: JsonSchema } | undefined)?.jsonSchema;
    if (rule) rule(schema, metadata.constraints ?? []);
    else if (relation) relations.push(relation(property));
    else if (carried) Object.assign(schema, carried);
    else throw new Error(`${where}: validator "${metadata.name}" has no JSON Schema mapping (add it to core/schema/dto-schema-builder.ts)`);
  }
  // `type` first: easier to read in the printed schema.
  const { type, ...rest } = schema;
  return { schema: type === undefined ? rest : { type, ...rest }, optional, nullable, relations };
}
