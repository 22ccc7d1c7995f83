import { getMetadataStorage, ValidationTypes } from "class-validator";
import { nestedParamsOf, type RuleSchema } from "../kernel/params-decorators.js";
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
  ["isObject", (s) => (s.type = "object")],
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

const CONDITIONAL = "conditionalValidation";
const CUSTOM = "customValidation";

/**
 * The parameter objects nested DTOs declare (`@NestedParams`), described once each under their class
 * name: the description's `$defs` carry them, and properties point at them with `$ref`, so a DTO may
 * nest itself.
 */
export class NestedDefs {
  readonly schemas = new Map<string, JsonSchema>();
  private readonly classes = new Map<string, ParamsClass>();

  constructor(private readonly reserved: ReadonlySet<string>) {}

  /** The `$ref` of a nested DTO, describing it on first use. */
  ref(dto: ParamsClass): JsonSchema {
    const name = dto.name;
    const known = this.classes.get(name);
    if (known !== undefined && known !== dto) throw new Error(`two nested params classes are named ${name}: rename one`);
    if (this.reserved.has(name)) throw new Error(`nested params class ${name} has the name of a wire definition: rename it`);
    if (known === undefined) {
      this.classes.set(name, dto);
      this.schemas.set(name, {});
      this.schemas.set(name, paramsSchema(dto, this));
    }
    return { $ref: `#/$defs/${name}` };
  }
}

/**
 * Derives the JSON Schema of a params DTO from class-validator's metadata storage, the same metadata
 * the server validates with: no second description to keep in step. Nested DTOs go to `defs`.
 */
export function paramsSchema(dto: ParamsClass | undefined, defs: NestedDefs = new NestedDefs(new Set())): JsonSchema {
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
    const { schema: propertySchema, optional, nullable, relations } = describeProperty(dto, property, metadatas, defs);
    schema.properties![property] = nullable ? { anyOf: [propertySchema, { type: "null" }] } : propertySchema;
    if (!optional) schema.required!.push(property);
    allOf.push(...relations);
  }
  if (allOf.length > 0) schema.allOf = allOf;
  return schema;
}

function describeProperty(dto: ParamsClass, property: string, metadatas: ValidationMetadata[], defs: NestedDefs) {
  const schema: JsonSchema = {};
  const relations: JsonSchema[] = [];
  let optional = false;
  let nullable = false;
  for (const metadata of metadatas) {
    const where = `${dto.name}.${property}`;
    if (metadata.type === ValidationTypes.NESTED_VALIDATION) {
      // @NestedParams: the nested DTO (or, with `each`, an array of them; its IsArray gives the type).
      const nested = nestedParamsOf(dto, property);
      if (!nested) throw new Error(`${where}: @ValidateNested without @NestedParams has no JSON Schema mapping`);
      const target = defs.ref(nested);
      if (metadata.each) schema.items = target;
      else Object.assign(schema, target);
      continue;
    }
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
    // A family's own rule describes itself (`DescribedRule`, core/kernel/params-decorators.ts): its
    // schema lives with the rule, next to the DTO that uses it.
    const carried = metadata.constraints?.[0] as RuleSchema | undefined;
    if (rule) rule(schema, metadata.constraints ?? []);
    else if (carried?.jsonSchema || carried?.objectSchema) {
      if (carried.jsonSchema) Object.assign(schema, carried.jsonSchema);
      if (carried.objectSchema) relations.push(carried.objectSchema);
    } else throw new Error(`${where}: validator "${metadata.name}" has no JSON Schema mapping (describe it with DescribedRule, or add it to core/schema/dto-schema-builder.ts)`);
  }
  // `type` first: easier to read in the printed schema.
  const { type, ...rest } = schema;
  return { schema: type === undefined ? rest : { type, ...rest }, optional, nullable, relations };
}
