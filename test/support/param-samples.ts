import type { JsonSchema } from "../../core/wire/json-schema.js";

export interface ParamSample {
  label: string;
  params: Record<string, unknown>;
}

/** Strings longer than this are only varied one field at a time (pairs would multiply megabytes). */
const SMALL = 4096;

/**
 * Boundary values for one property, read off its schema alone (never off the DTO): the drift test
 * then asks the real server about each. Values that are valid and invalid by the schema both come out;
 * the checker, not this function, decides which is which.
 */
export function candidateValues(schema: JsonSchema): unknown[] {
  const values: unknown[] = [null, true, {}, []];
  if (schema.enum) values.push(...schema.enum, "not-a-listed-value", "");
  if (schema.type === "integer" || schema.type === "number") {
    const min = schema.minimum ?? 0;
    values.push(min, min - 1, min + 0.5, String(min), 1e15);
    if (schema.maximum !== undefined) values.push(schema.maximum, schema.maximum + 1);
  }
  if (schema.type === "string") {
    values.push("", "a", "é", "\uFE0F", "\ud83d\ude00", 7);
    // Byte- and character-oriented boundaries around whatever upper bound the schema states, so a
    // schema that loses its byte bound (or states a wrong one) meets values that tell them apart.
    const bound = schema["x-maxBytes"] ?? schema.maxLength;
    if (bound !== undefined) {
      values.push(
        "a".repeat(bound), // exactly the bound
        "a".repeat(bound + 1), // one over
        `${"a".repeat(bound - 2)}é`, // the bound in bytes, ending in a 2-byte character
        "é".repeat(Math.floor(bound / 2) + 1), // over in bytes, under in characters
        "\ud83d\ude00".repeat(Math.floor(bound / 4)), // 4-byte characters up to the bound
      );
      if (bound <= 1024 * 1024) values.push("\ud83d\ude00".repeat(bound)); // the bound in characters, 4 times over in bytes
      // A lone surrogate is 3 bytes in Node but 6 in escaped JSON: only where the record stays small.
      if (bound <= 64 * 1024) values.push(`${"\ud800".repeat(Math.floor(bound / 3))}${"a".repeat(bound % 3)}`, "\ud800".repeat(Math.floor(bound / 3) + 1));
    }
  }
  return values;
}

const isSmall = (value: unknown): boolean => typeof value !== "string" || value.length <= SMALL;

/**
 * Samples for one method: `{}`, a base object that the schema accepts (`problemFields` decides), the base with
 * an unknown key, with each required field removed, with each field set to each candidate, and every
 * pair of fields set to every pair of small candidates (cross-field rules such as "text may be empty
 * only for continue" need pairs).
 */
export function paramSamples(schema: JsonSchema, problemFields: (params: Record<string, unknown>) => string[], maxRecordBytes: number): ParamSample[] {
  const properties = Object.entries(schema.properties ?? {});
  const base: Record<string, unknown> = {};
  for (const key of schema.required ?? []) {
    // Fields are chosen one by one: a value is good when the checker blames no problem on this field.
    const choice = candidateValues(schema.properties![key]!).find((value) => !problemFields({ ...base, [key]: value }).includes(`params.${key}`));
    if (choice === undefined) throw new Error(`no candidate value satisfies required field ${key}`);
    base[key] = choice;
  }
  if (problemFields(base).length > 0) throw new Error(`could not build a valid params object: ${JSON.stringify(base)}`);
  const samples: ParamSample[] = [
    { label: "{}", params: {} },
    { label: "base", params: base },
    { label: "unknown key", params: { ...base, zz_unknown: 1 } },
  ];
  for (const key of schema.required ?? []) {
    const { [key]: _removed, ...rest } = base;
    samples.push({ label: `without ${key}`, params: rest });
  }
  for (const [key, property] of properties) {
    candidateValues(property).forEach((value, i) => samples.push({ label: `${key}#${i}`, params: { ...base, [key]: value } }));
  }
  for (let a = 0; a < properties.length; a++) {
    for (let b = a + 1; b < properties.length; b++) {
      const [keyA, schemaA] = properties[a]!;
      const [keyB, schemaB] = properties[b]!;
      const valuesA = candidateValues(schemaA).filter(isSmall);
      const valuesB = candidateValues(schemaB).filter(isSmall);
      valuesA.forEach((va, i) => valuesB.forEach((vb, j) => samples.push({ label: `${keyA}#${i}+${keyB}#${j}`, params: { ...base, [keyA]: va, [keyB]: vb } })));
    }
  }
  // A record over the framing bound is a fatal framing error, not a params question.
  return samples.filter((sample) => Buffer.byteLength(JSON.stringify(sample.params)) < maxRecordBytes - 4096);
}
