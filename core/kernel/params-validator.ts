import { getMetadataStorage, ValidationTypes, validateSync, type ValidationError } from "class-validator";
import type { ParamsClass } from "./rpc-method-metadata.js";
import { type LocatedProblem, nestedParamsOf } from "./params-decorators.js";
import { RpcError, type FieldProblem } from "./rpc-error.js";
import { RPC_LIMITS } from "../wire/limits.js";
import { sliceChars } from "../wire/utf8-clip.js";

const MAX_FIELD_NAME = 64;
/** DTOs may nest DTOs (even themselves); a record nests at most this deep into them. */
const MAX_NESTED_DTO_DEPTH = 16;
const TOO_DEEP = `nests deeper than ${MAX_NESTED_DTO_DEPTH} levels of parameter objects`;
/** What a method without a params DTO gets: one frozen object, not a new one per request. */
const NO_PARAMS = Object.freeze({});
const VALIDATION = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, stopAtFirstError: true } as const;

interface DtoShape {
  readonly known: ReadonlySet<string>;
  /** Properties declared with `@NestedParams`: the DTO their object (or each array item) must be. */
  readonly nested: ReadonlyMap<string, ParamsClass>;
}

/**
 * Synchronous params admission with class-validator DTOs. Instances are built here, not by
 * class-transformer: every own key of the request, at every level of nested DTOs, is checked against the
 * DTO's declared properties first, so a hostile key (`__proto__`, `constructor`, `toString`, a
 * megabyte-long name) is refused exactly like `bogus` and never reaches a transformer. Values that are
 * not nested DTOs are handed to the validators as they were parsed. Problems name fields, never values.
 */
export class ParamsValidator {
  private readonly shapes = new Map<ParamsClass, DtoShape>();

  /** Called at boot for every DTO (and the DTOs it nests): a DTO without validated properties is a wiring error. */
  prepare(dto: ParamsClass): void {
    if (this.shapes.has(dto)) return;
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, "", true, false);
    const known = new Set(metadatas.map((metadata) => metadata.propertyName));
    if (known.size === 0) throw new Error(`params class ${dto.name} declares no validated properties`);
    const nested = new Map<string, ParamsClass>();
    for (const metadata of metadatas) {
      if (metadata.type !== ValidationTypes.NESTED_VALIDATION) continue;
      const type = nestedParamsOf(dto, metadata.propertyName);
      if (!type) throw new Error(`params class ${dto.name}: ${metadata.propertyName} must declare its DTO with @NestedParams`);
      nested.set(metadata.propertyName, type);
    }
    this.shapes.set(dto, { known, nested });
    for (const type of nested.values()) this.prepare(type);
  }

  /** Returns the admitted params object, or throws RpcError `invalid_request` with `details`. */
  admit(dto: ParamsClass | undefined, params: Record<string, unknown> | undefined): object {
    if (dto === undefined) {
      if (params !== undefined) {
        const keys = Object.keys(params);
        if (keys.length > 0) throw invalid(keys.slice(0, COLLECTED_DETAILS).map((key) => unknownField("", key)));
      }
      return NO_PARAMS;
    }
    const problems: FieldProblem[] = [];
    const instance = this.instantiate(dto, params ?? {}, "", 0, problems);
    for (const error of validateSync(instance, VALIDATION)) collect(error, "", problems);
    if (problems.length > 0) throw invalid(problems);
    return instance;
  }

  private instantiate(dto: ParamsClass, source: Record<string, unknown>, prefix: string, depth: number, problems: FieldProblem[]): object {
    const shape = this.shapes.get(dto)!;
    const instance = new dto() as Record<string, unknown>;
    for (const key of Object.keys(source)) {
      if (!shape.known.has(key)) {
        // A record may carry a million unknown keys: only enough problems to fill the capped details.
        if (problems.length < COLLECTED_DETAILS) problems.push(unknownField(prefix, key));
        continue;
      }
      const value = source[key];
      const type = shape.nested.get(key);
      if (type === undefined) instance[key] = value;
      else if (depth + 1 > MAX_NESTED_DTO_DEPTH) problems.push({ field: `params.${prefix}${key}`, problem: TOO_DEEP });
      else instance[key] = this.nestedValue(type, value, `${prefix}${key}`, depth + 1, problems);
    }
    return instance;
  }

  /** Plain objects become instances of the nested DTO; anything else is left for its validators to refuse. */
  private nestedValue(type: ParamsClass, value: unknown, field: string, depth: number, problems: FieldProblem[]): unknown {
    const one = (item: unknown, at: string) =>
      isPlainObject(item) ? this.instantiate(type, item, `${at}.`, depth, problems) : item;
    return Array.isArray(value) ? value.map((item, index) => one(item, `${field}.${index}`)) : one(value, field);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One more than a protocol_error shows, so the connection knows to mark the list truncated. */
const COLLECTED_DETAILS = RPC_LIMITS.maxErrorDetails + 1;

function invalid(details: FieldProblem[]): RpcError {
  return new RpcError("invalid_request", "invalid params", details);
}

function unknownField(prefix: string, key: string): FieldProblem {
  return { field: `params.${prefix}${fieldName(key)}`, problem: "unknown field" };
}

function fieldName(key: string | number): string {
  const name = String(key);
  return name.length > MAX_FIELD_NAME ? `${sliceChars(name, MAX_FIELD_NAME)}…` : name;
}

function collect(error: ValidationError, prefix: string, out: FieldProblem[]): void {
  const field = `${prefix}${error.property}`;
  for (const [name, problem] of Object.entries(error.constraints ?? {})) {
    // A rule over a whole nested value may say which part failed (`locatedBy`): the field names that part.
    const locate = (error.contexts?.[name] as { locate?: (value: unknown) => LocatedProblem | undefined } | undefined)?.locate;
    const located = locate?.(error.value);
    if (located) out.push({ field: ["params", field, ...located.path.map(fieldName)].join("."), problem: located.problem });
    else out.push({ field: `params.${field}`, problem });
  }
  for (const child of error.children ?? []) collect(child, `${field}.`, out);
}
