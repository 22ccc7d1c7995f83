import { IsArray, IsObject, ValidateBy, ValidateIf, ValidateNested, type ValidationOptions } from "class-validator";
import type { JsonSchema } from "../wire/json-schema.js";
import type { ParamsClass } from "./rpc-method-metadata.js";

/**
 * Optional but never null: `@IsOptional()` would let an explicit `null` through, which no Zi method
 * accepts.
 */
export function Optional(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}

/**
 * A string of at most `max` UTF-8 bytes. `@MaxLength` counts UTF-16 units and `@IsByteLength` throws on
 * lone surrogates, so the protocol's byte bounds are checked with Buffer.byteLength.
 */
export function MaxBytes(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: "maxBytes",
      constraints: [max],
      validator: {
        validate: (value) => typeof value === "string" && Buffer.byteLength(value) <= max,
        defaultMessage: (args) => `${args?.property} must be a string of at most ${max} UTF-8 bytes`,
      },
    },
    options,
  );
}

const NESTED_PARAMS = new WeakMap<object, Map<string, () => ParamsClass>>();

/** How a rule of a params DTO describes itself to `zi schema` (core/schema/dto-schema-builder.ts). */
export interface RuleSchema {
  /** Merged into the property's own schema (`maxItems`, `items`, ...). */
  jsonSchema?: JsonSchema;
  /** A rule relating several fields: one member of the params object's `allOf` (`if`/`then`, ...). */
  objectSchema?: JsonSchema;
}

export interface DescribedRuleOptions extends RuleSchema {
  /** The rule's name in class-validator's metadata (unique among rules). */
  name: string;
  /** `object` is the whole params object, for rules that relate fields. */
  validate(value: unknown, object: object): boolean;
  /** The problem `details` names; never echo the value itself. `object` as for `validate`. */
  message(value: unknown, object: object): string;
}

/**
 * A validation rule of a family's own that carries its JSON Schema with it, so `zi schema` describes
 * it without the schema builder knowing the rule: the rule and its description live together, next
 * to the DTO that uses it.
 */
export function DescribedRule(rule: DescribedRuleOptions, options?: ValidationOptions): PropertyDecorator {
  const schema: RuleSchema = {};
  if (rule.jsonSchema) schema.jsonSchema = rule.jsonSchema;
  if (rule.objectSchema) schema.objectSchema = rule.objectSchema;
  return ValidateBy(
    {
      name: rule.name,
      constraints: [schema],
      validator: {
        validate: (value, args) => rule.validate(value, args?.object ?? {}),
        defaultMessage: (args) => rule.message(args?.value, args?.object ?? {}),
      },
    },
    options,
  );
}

/**
 * A property whose value is a parameter object of its own (or, with `each`, an array of them). The
 * params validator builds the nested DTO itself and refuses unknown keys in it exactly as at the top
 * level; class-transformer's `@Type` is not used on the request path. `zi schema` describes the nested
 * DTO once, in `$defs` under its class name, so a DTO may nest itself.
 */
export function NestedParams(type: () => ParamsClass, options?: ValidationOptions): PropertyDecorator {
  return (target, property) => {
    // The value's own shape (an object, or an array of them), so that params and schema agree on it.
    (options?.each ? IsArray() : IsObject())(target, property);
    const owner = target.constructor;
    const declared = NESTED_PARAMS.get(owner) ?? new Map<string, () => ParamsClass>();
    // Resolved lazily (at boot): the nested class may be declared below its user, or be the class itself.
    declared.set(String(property), type);
    NESTED_PARAMS.set(owner, declared);
    ValidateNested(options)(target, property);
  };
}

/** The DTO `@NestedParams` declared for a property, if any. */
export function nestedParamsOf(dto: ParamsClass, property: string): ParamsClass | undefined {
  for (let owner: object | null = dto; owner !== null && owner !== Function.prototype; owner = Object.getPrototypeOf(owner)) {
    const declared = NESTED_PARAMS.get(owner);
    const type = declared?.get(property);
    if (type) return type();
  }
  return undefined;
}

/** Where inside a parameter's value a rule failed: keys and indexes below the parameter, and why. */
export interface LocatedProblem {
  path: readonly (string | number)[];
  problem: string;
}

/**
 * ValidationOptions for a custom rule over a whole nested value (an array of steps): `locate` names
 * the part at fault, so the problem is reported on `params.<name>.<index>.<key>` like any nested field
 * (docs/protocol.md), not on the parameter as a whole.
 */
export function locatedBy(locate: (value: unknown) => LocatedProblem | undefined): ValidationOptions {
  return { context: { locate } };
}
