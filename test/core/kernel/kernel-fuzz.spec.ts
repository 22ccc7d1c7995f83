import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { JsonlFramer } from "../../../core/kernel/jsonl-framer.js";
import { RpcError } from "../../../core/kernel/rpc-error.js";
import { assertFuzz, frameProblems, recordBatch, type RequestCatalog } from "../../support/fuzz-records.js";
import { serveTestFamily } from "../../support/test-family.js";

const MAX = 64;

/** What the framer must produce for `input`: the LF-separated records, or invalid_framing at the first bad one. */
function referenceFrame(input: Buffer): { records: string[]; fatal: boolean } {
  const records: string[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let start = 0;
  for (;;) {
    const nl = input.indexOf(10, start);
    const terminated = nl !== -1;
    let record = input.subarray(start, terminated ? nl : input.length);
    if (!terminated && record.length === 0) return { records, fatal: false };
    if (record.length > 0 && record[record.length - 1] === 13) record = record.subarray(0, record.length - 1);
    if (record.length > MAX) return { records, fatal: true };
    try {
      records.push(decoder.decode(record));
    } catch {
      return { records, fatal: true };
    }
    if (!terminated) return { records, fatal: false };
    start = nl + 1;
  }
}

/** Bytes biased towards framing edge cases: LF, CR, multi-byte UTF-8, lone continuation bytes, long runs. */
const framingBytes = fc
  .array(
    fc.oneof(
      fc.uint8Array({ maxLength: 20 }),
      fc.constantFrom(Buffer.from("\n"), Buffer.from("\r\n"), Buffer.from("é"), Buffer.from("€"), Buffer.from("😀"), Buffer.from([0x80]), Buffer.from([0xc3]), Buffer.from([0xed, 0xa0, 0x80])),
      fc.integer({ min: MAX - 2, max: MAX + 3 }).map((n) => Buffer.alloc(n, 0x61)),
      fc.string({ maxLength: 30 }).map((s) => Buffer.from(s)),
    ),
    { maxLength: 12 },
  )
  .map((parts) => Buffer.concat(parts));

/** Cut points: the same bytes arrive in arbitrary chunks. */
const chunked = framingBytes.chain((input) =>
  fc.uniqueArray(fc.nat(Math.max(0, input.length)), { maxLength: 6 }).map((cuts) => {
    const points = [0, ...cuts.sort((a, b) => a - b), input.length];
    return { input, chunks: points.slice(1).map((end, i) => input.subarray(points[i], end)).filter((c) => c.length > 0) };
  }),
);

const KERNEL_REQUESTS: RequestCatalog = [
  ["test.echo", fc.record({ bytes: fc.nat(100), note: fc.string({ maxLength: 10 }) }, { requiredKeys: ["bytes"] })],
  ["test.missing", fc.constant(undefined)],
  ["test.fail", fc.constant(undefined)],
  ["connection.set_events", fc.record({ mode: fc.constantFrom("all", "none") }, { requiredKeys: [] })],
];

describe("fuzz: framer and connection in memory", () => {
  it("the framer yields exactly the LF-separated records of any byte stream, however it is chunked, or invalid_framing", async () => {
    await assertFuzz(
      fc.property(chunked, ({ input, chunks }) => {
        const framer = new JsonlFramer(MAX);
        const expected = referenceFrame(input);
        const records: string[] = [];
        let fatal = false;
        try {
          for (const chunk of chunks) {
            framer.push(chunk);
            for (let record = framer.next(); record !== null; record = framer.next()) records.push(record);
          }
          const last = framer.finish();
          if (last !== null) records.push(last);
        } catch (error) {
          expect(error).toBeInstanceOf(RpcError);
          expect((error as RpcError).code).toBe("invalid_framing");
          fatal = true;
        }
        expect(fatal).toBe(expected.fatal);
        expect(records).toEqual(expected.records);
      }),
      2000,
    );
  });

  it("the connection answers every record exactly once, with spec codes and gapless sequences", async () => {
    await assertFuzz(
      fc.asyncProperty(recordBatch("k", 25, KERNEL_REQUESTS), async (records) => {
        const h = serveTestFamily();
        h.send(...records.map((record) => record.text));
        h.input.end();
        expect(await h.exit).toBe(0);
        const problems = frameProblems(h.output.frames(), records);
        expect(problems).toEqual([]);
      }),
      400,
    );
  });
});
