import fc from "fast-check";

/**
 * Generators of hostile protocol records for the fuzz tests, shared by the in-memory kernel run and the
 * black-box run against the built `zi`. One seed per run: `ZI_FUZZ_SEED=<n>` reproduces a failure (the
 * failing seed is printed), without it the fixed default keeps CI deterministic.
 */
export const FUZZ_SEED = Number(process.env.ZI_FUZZ_SEED ?? 20261130);

/** fast-check parameters with the run's seed; a failure message names the seed to rerun with. */
export function fuzzParameters(numRuns: number): fc.Parameters<unknown> {
  return { seed: FUZZ_SEED, numRuns, endOnFailure: true };
}

/** Asserts a property, prefixing a failure with the command that reproduces it. */
export async function assertFuzz<T>(property: fc.IAsyncPropertyWithHooks<[T]> | fc.IPropertyWithHooks<[T]>, numRuns: number): Promise<void> {
  try {
    await fc.assert(property as fc.IAsyncProperty<[T]>, fuzzParameters(numRuns));
  } catch (error) {
    throw new Error(`fuzz failure; reproduce with ZI_FUZZ_SEED=${FUZZ_SEED}\n${(error as Error).message}`);
  }
}

export const PROTOCOL_CODES: ReadonlySet<string> = new Set(["parse_error", "invalid_request", "unsupported_version", "unknown_method", "invalid_framing"]);
export const OPERATION_CODES: ReadonlySet<string> = new Set(["capacity", "not_found", "operation_failed"]);

export const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "toJSON", "then"];

/** A valid params object for every method of the spec and of the plan family (nested DTO-like steps included). */
export type RequestCatalog = readonly [string, fc.Arbitrary<Record<string, unknown> | undefined>][];

export const VALID_REQUESTS: RequestCatalog = [
  ["session.get_state", fc.constant(undefined)],
  ["session.get_messages", fc.record({ start: fc.nat(5), limit: fc.integer({ min: 1, max: 100 }) }, { requiredKeys: [] })],
  ["session.get_outcomes", fc.record({ start: fc.nat(5), limit: fc.integer({ min: 1, max: 100 }) }, { requiredKeys: [] })],
  [
    "session.prompt",
    fc.record(
      { delivery: fc.constantFrom("direct", "steer", "follow_up", "continue"), text: fc.string({ minLength: 1, maxLength: 20 }), completionId: fc.string({ minLength: 1, maxLength: 8 }) },
      { requiredKeys: ["delivery", "text"] },
    ),
  ],
  ["session.interrupt", fc.constant(undefined)],
  ["session.await_idle", fc.record({ completionId: fc.string({ minLength: 1, maxLength: 8 }) }, { requiredKeys: [] })],
  ["connection.set_events", fc.record({ mode: fc.constantFrom("all", "none") }, { requiredKeys: [] })],
  ["command.list", fc.constant(undefined)],
  ["command.invoke", fc.record({ name: fc.string({ minLength: 1, maxLength: 10 }), arguments: fc.string({ maxLength: 10 }) })],
  ["model.list", fc.constant(undefined)],
  ["model.select", fc.record({ provider: fc.constantFrom("faux", "nope"), id: fc.constantFrom("echo", "nope") })],
  ["thinking.list", fc.constant(undefined)],
  ["thinking.select", fc.record({ level: fc.constantFrom("off", "minimal", "low", "medium", "high", "xhigh") }, { requiredKeys: ["level"] })],
  ["plan.get", fc.constant(undefined)],
  [
    "plan.replace",
    fc.record({
      steps: fc.array(
        fc.record(
          { id: fc.string({ minLength: 1, maxLength: 6 }), title: fc.string({ minLength: 1, maxLength: 10 }), status: fc.constantFrom("pending", "in_progress", "completed", "cancelled") },
          { requiredKeys: ["title", "status"] },
        ),
        { maxLength: 3 },
      ),
    }),
  ],
];

const hostileKey = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, "bogus", ""), fc.string({ maxLength: 80 }));
const hugeNumber = fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 1e-320, Number.MAX_SAFE_INTEGER * 1000);
const deepValue = fc.integer({ min: 1, max: 300 }).map((depth) => JSON.parse("[".repeat(depth) + "]".repeat(depth)) as unknown);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hugeNumber,
  deepValue,
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.constant(null),
);

/** One mutation of a JSON value, applied at a random level: a key added (prototype names first), a value replaced, a key dropped. */
function mutate(value: unknown, choice: number, key: string, replacement: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return replacement;
  if (Array.isArray(value)) {
    if (value.length === 0 || choice % 3 === 0) return [...value, replacement];
    const index = choice % value.length;
    return value.map((item, i) => (i === index ? mutate(item, Math.floor(choice / 3), key, replacement, depth + 1) : item));
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const copy: Record<string, unknown> = {};
  for (const k of keys) copy[k] = record[k];
  const action = choice % 4;
  if (action === 0 || keys.length === 0) Object.defineProperty(copy, key, { value: replacement, enumerable: true, writable: true, configurable: true });
  else if (action === 1) delete copy[keys[choice % keys.length]!];
  else {
    const target = keys[Math.floor(choice / 4) % keys.length]!;
    copy[target] = action === 2 ? replacement : mutate(record[target], Math.floor(choice / 16), key, replacement, depth + 1);
  }
  return copy;
}

export interface FuzzRecord {
  /** The record's text, without LF. */
  text: string;
  /** The id Zi must answer under, when the record is a JSON object with a valid id; undefined when unknown. */
  id?: string;
}

/** A valid request for a random method, then zero to three mutations anywhere in it (envelope included). */
export const mutatedRequest = (idPrefix: string, catalog: RequestCatalog): fc.Arbitrary<Omit<FuzzRecord, "id"> & { value: unknown }> =>
  fc
    .constantFrom(...catalog)
    .chain(([method, params]) => fc.tuple(fc.constant(method), params))
    .chain(([method, params]) =>
      fc.tuple(
        fc.constant(params === undefined ? { version: 1, id: idPrefix, method } : { version: 1, id: idPrefix, method, params }),
        fc.array(fc.tuple(fc.nat(), hostileKey, hostileValue), { maxLength: 3 }),
      ),
    )
    .map(([request, mutations]) => {
      let value: unknown = request;
      for (const [choice, key, replacement] of mutations) value = mutate(value, choice, key, replacement, 0);
      return { text: JSON.stringify(value), value };
    });

/** Text damage: truncation, a flipped character, raw garbage; the result never contains LF. */
export const damagedText = (text: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.nat(text.length).map((end) => text.slice(0, end)),
    fc.tuple(fc.nat(Math.max(0, text.length - 1)), fc.integer({ min: 1, max: 0xd7ff })).map(([at, code]) => text.slice(0, at) + String.fromCharCode(code) + text.slice(at + 1)),
    fc.string({ unit: "grapheme", maxLength: 40 }),
  ).map((damaged) => damaged.replace(/\n/g, " "));

/** The id a record must be answered under: a valid id string when the record is a JSON object carrying one. */
export function answerId(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const id = (value as Record<string, unknown>).id;
  return typeof id === "string" && id.length > 0 && Buffer.byteLength(id) <= 256 ? id : undefined;
}

/**
 * A batch of records with unique ids: mutated valid requests, some of them damaged as text. `prefix`
 * keeps ids unique across batches sent to the same connection.
 */
export const recordBatch = (prefix: string, maxLength: number, catalog: RequestCatalog = VALID_REQUESTS): fc.Arbitrary<FuzzRecord[]> =>
  fc.array(fc.tuple(mutatedRequest("x", catalog), fc.boolean(), fc.nat()), { minLength: 1, maxLength }).chain((items) =>
    fc.tuple(
      ...items.map(([request, damage, salt], index) => {
        const id = `${prefix}${index}`;
        // Put the unique id in place of the placeholder wherever the mutations left it.
        const text = request.text.replace('"id":"x"', `"id":${JSON.stringify(id)}`);
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          value = undefined;
        }
        const exact = fc.constant<FuzzRecord>({ text, id: answerId(value) });
        if (!damage || salt % 2 === 0) return exact;
        return damagedText(text).map<FuzzRecord>((damaged) => ({ text: damaged, id: undefined }));
      }),
    ),
  );

/** Does this record produce a frame? Empty lines (after a trailing CR is stripped) are skipped by Zi. */
export function isAnswered(record: FuzzRecord): boolean {
  return record.text !== "" && record.text !== "\r";
}

/** The invariants every frame sequence must keep, whatever the input: returns the problems found. */
export function frameProblems(frames: any[], records: FuzzRecord[]): string[] {
  const problems: string[] = [];
  frames.forEach((frame, index) => {
    if (frame.version !== 1) problems.push(`frame ${index} has version ${frame.version}`);
    if (frame.sequence !== index + 1) problems.push(`frame ${index} has sequence ${frame.sequence}`);
    if (frame.type === "protocol_error") {
      if (!PROTOCOL_CODES.has(frame.error?.code)) problems.push(`protocol_error without a spec code: ${JSON.stringify(frame).slice(0, 300)}`);
      if (frame.fatal !== (frame.error?.code === "invalid_framing")) problems.push(`protocol_error fatal flag wrong: ${JSON.stringify(frame).slice(0, 300)}`);
    } else if (frame.type === "response" && frame.ok === false) {
      if (!OPERATION_CODES.has(frame.error?.code)) problems.push(`response error without a spec code: ${JSON.stringify(frame).slice(0, 300)}`);
    } else if (!["ready", "response", "session_event"].includes(frame.type)) {
      problems.push(`unknown frame type: ${JSON.stringify(frame).slice(0, 300)}`);
    }
    const message: unknown = frame.error?.message;
    if (typeof message === "string" && /Maximum call stack|Cannot read properties|is not a constructor|is not a function/.test(message)) {
      problems.push(`engine message on the wire: ${message}`);
    }
  });
  const answers = frames.filter((frame) => frame.type === "response" || frame.type === "protocol_error");
  const expected = records.filter(isAnswered).length;
  if (answers.length !== expected) problems.push(`${answers.length} answers for ${expected} records`);
  const answered = new Map<string, number>();
  for (const frame of answers) if (typeof frame.id === "string") answered.set(frame.id, (answered.get(frame.id) ?? 0) + 1);
  const sent = new Map<string, number>();
  for (const record of records) if (record.id !== undefined) sent.set(record.id, (sent.get(record.id) ?? 0) + 1);
  for (const [id, count] of sent) {
    if (answered.get(id) !== count) problems.push(`id ${id} sent ${count} times, answered ${answered.get(id) ?? 0} times`);
  }
  return problems;
}
