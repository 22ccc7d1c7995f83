import { ValidateBy, ValidateIf, type ValidationOptions } from "class-validator";

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
