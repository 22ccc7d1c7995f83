import { ValidateBy, ValidateIf, ValidateNested, type ValidationOptions } from "class-validator";
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

/**
 * A property whose value is a parameter object of its own (or, with `each`, an array of them). The
 * params validator builds the nested DTO itself and refuses unknown keys in it exactly as at the top
 * level; class-transformer's `@Type` is not used on the request path.
 */
export function NestedParams(type: () => ParamsClass, options?: ValidationOptions): PropertyDecorator {
  return (target, property) => {
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
