import { plainToInstance } from "class-transformer";
import { getMetadataStorage, validateSync, type ValidationError } from "class-validator";
import type { ParamsClass } from "./rpc-method-metadata.js";
import { RpcError, type FieldProblem } from "./rpc-error.js";
import { RPC_LIMITS } from "./rpc-limits.js";

const MAX_FIELD_NAME = 64;
const VALIDATION = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, stopAtFirstError: true } as const;

/**
 * Synchronous params admission with class-validator DTOs. Unknown keys are found against the DTO's
 * declared properties before any transformation, so a hostile key (`__proto__`, a megabyte-long name)
 * never reaches class-transformer. Problems name fields, never the rejected values.
 */
export class ParamsValidator {
  private readonly known = new Map<ParamsClass, ReadonlySet<string>>();

  /** Called at boot for every DTO: a DTO without validated properties is a wiring error. */
  prepare(dto: ParamsClass): void {
    const properties = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, "", true, false)
        .map((metadata) => metadata.propertyName),
    );
    if (properties.size === 0) throw new Error(`params class ${dto.name} declares no validated properties`);
    this.known.set(dto, properties);
  }

  /** Returns the admitted params object, or throws RpcError `invalid_request` with `details`. */
  admit(dto: ParamsClass | undefined, params: Record<string, unknown> | undefined): object {
    if (dto === undefined) {
      if (params !== undefined) {
        const keys = Object.keys(params);
        if (keys.length > 0) throw invalid(keys.slice(0, COLLECTED_DETAILS).map(unknownField));
      }
      return {};
    }
    const known = this.known.get(dto)!;
    const source = params ?? {};
    const problems: FieldProblem[] = [];
    const accepted: Record<string, unknown> = {};
    for (const key of Object.keys(source)) {
      if (known.has(key)) accepted[key] = source[key];
      else if (problems.length < COLLECTED_DETAILS) problems.push(unknownField(key));
    }
    const instance = plainToInstance(dto, accepted);
    for (const error of validateSync(instance, VALIDATION)) collect(error, "", problems);
    if (problems.length > 0) throw invalid(problems);
    return instance;
  }
}

/** One more than a protocol_error shows, so the connection knows to mark the list truncated. */
const COLLECTED_DETAILS = RPC_LIMITS.maxErrorDetails + 1;

function invalid(details: FieldProblem[]): RpcError {
  return new RpcError("invalid_request", "invalid params", details);
}

function unknownField(key: string): FieldProblem {
  const field = key.length > MAX_FIELD_NAME ? `${key.slice(0, MAX_FIELD_NAME)}…` : key;
  return { field: `params.${field}`, problem: "unknown field" };
}

function collect(error: ValidationError, prefix: string, out: FieldProblem[]): void {
  const field = `${prefix}${error.property}`;
  if (error.constraints) {
    for (const problem of Object.values(error.constraints)) out.push({ field: `params.${field}`, problem });
  }
  for (const child of error.children ?? []) collect(child, `${field}.`, out);
}
