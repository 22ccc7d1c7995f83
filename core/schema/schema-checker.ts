import type { JsonSchema, JsonType, SchemaProblem } from "../wire/json-schema.js";

/**
 * A small checker for exactly the JSON Schema subset Zi emits (see json-schema-types.ts). `$ref`s
 * resolve against the root document (`#/$defs/...`). Two deliberate choices follow the server's
 * validator rather than generic JSON Schema:
 * - `minLength`/`maxLength` count like validator.js `isLength` (code points, a variation selector
 *   after a character not counted), which is what class-validator's MinLength/MaxLength check;
 * - `x-maxBytes` counts UTF-8 bytes as Node's Buffer.byteLength does (a lone surrogate is 3 bytes).
 * Each field gets its first problem only (the server validates with stopAtFirstError).
 */
export class SchemaChecker {
  constructor(private readonly root: JsonSchema = {}) {}

  check(schema: JsonSchema, value: unknown, field = ""): SchemaProblem[] {
    if (schema.$ref !== undefined) return this.check(this.resolve(schema.$ref), value, field);
    const own = this.scalarProblem(schema, value);
    if (own !== undefined) return [{ field, problem: own }];
    const problems: SchemaProblem[] = [];
    if (isObject(value)) problems.push(...this.objectProblems(schema, value, field));
    if (Array.isArray(value)) problems.push(...this.arrayProblems(schema, value, field));
    for (const member of schema.allOf ?? []) problems.push(...this.check(member, value, field));
    if (schema.anyOf && !schema.anyOf.some((member) => this.passes(member, value))) {
      problems.push({ field, problem: "matches none of the allowed shapes" });
    }
    if (schema.oneOf && schema.oneOf.filter((member) => this.passes(member, value)).length !== 1) {
      problems.push({ field, problem: "must match exactly one of the allowed shapes" });
    }
    if (schema.not && this.passes(schema.not, value)) problems.push({ field, problem: "matches a forbidden shape" });
    if (schema.if) {
      const branch = this.passes(schema.if, value) ? schema.then : schema.else;
      if (branch) problems.push(...this.check(branch, value, field));
    }
    return firstPerField(problems);
  }

  passes(schema: JsonSchema, value: unknown): boolean {
    return this.check(schema, value).length === 0;
  }

  private resolve(ref: string): JsonSchema {
    const name = ref.startsWith("#/$defs/") ? ref.slice("#/$defs/".length) : undefined;
    const target = name === undefined ? undefined : this.root.$defs?.[name];
    if (!target) throw new Error(`unresolvable $ref ${ref}`);
    return target;
  }

  /** Keywords about the value itself; the first failing one is the field's problem. */
  private scalarProblem(schema: JsonSchema, value: unknown): string | undefined {
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!types.some((type) => hasType(value, type))) return `must be ${types.join(" or ")}`;
    }
    if (schema.enum && !schema.enum.some((allowed) => deepEqual(allowed, value))) return `must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
    if ("const" in schema && !deepEqual(schema.const, value)) return `must be ${JSON.stringify(schema.const)}`;
    if (typeof value === "string") {
      if (schema.minLength !== undefined && validatorLength(value) < schema.minLength) return `must be at least ${schema.minLength} characters`;
      if (schema.maxLength !== undefined && validatorLength(value) > schema.maxLength) return `must be at most ${schema.maxLength} characters`;
      if (schema["x-maxBytes"] !== undefined && Buffer.byteLength(value) > schema["x-maxBytes"]) return `must be at most ${schema["x-maxBytes"]} UTF-8 bytes`;
      if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) return `must match ${schema.pattern}`;
    }
    if (typeof value === "number") {
      if (schema.minimum !== undefined && value < schema.minimum) return `must be at least ${schema.minimum}`;
      if (schema.maximum !== undefined && value > schema.maximum) return `must be at most ${schema.maximum}`;
    }
    return undefined;
  }

  private objectProblems(schema: JsonSchema, value: Record<string, unknown>, field: string): SchemaProblem[] {
    const problems: SchemaProblem[] = [];
    const at = (key: string) => (field === "" ? key : `${field}.${key}`);
    for (const key of schema.required ?? []) {
      if (!Object.hasOwn(value, key)) problems.push({ field: at(key), problem: "is required" });
    }
    for (const [key, item] of Object.entries(value)) {
      const declared = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      if (declared) problems.push(...this.check(declared, item, at(key)));
      else if (schema.additionalProperties === false) problems.push({ field: at(key), problem: "unknown field" });
      else if (typeof schema.additionalProperties === "object") problems.push(...this.check(schema.additionalProperties, item, at(key)));
    }
    return problems;
  }

  private arrayProblems(schema: JsonSchema, value: unknown[], field: string): SchemaProblem[] {
    const problems: SchemaProblem[] = [];
    if (schema.minItems !== undefined && value.length < schema.minItems) problems.push({ field, problem: `must have at least ${schema.minItems} items` });
    if (schema.maxItems !== undefined && value.length > schema.maxItems) problems.push({ field, problem: `must have at most ${schema.maxItems} items` });
    if (schema.items) value.forEach((item, i) => problems.push(...this.check(schema.items!, item, field === "" ? `${i}` : `${field}.${i}`)));
    return problems;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case "object":
      return isObject(value);
    case "array":
      return Array.isArray(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "null":
      return value === null;
    default:
      return typeof value === type;
  }
}

/** validator.js isLength: UTF-16 units minus surrogate pairs minus variation selectors after a character. */
function validatorLength(text: string): number {
  const selectors = text.match(/[^\uFE0F\uFE0E][\uFE0F\uFE0E]/g)?.length ?? 0;
  const pairs = text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0;
  return text.length - selectors - pairs;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
  }
  return false;
}

function firstPerField(problems: SchemaProblem[]): SchemaProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => !seen.has(problem.field) && seen.add(problem.field));
}
