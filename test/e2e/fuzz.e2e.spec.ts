import { afterEach, describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { FUZZ_SEED, frameProblems, PROTOCOL_CODES, recordBatch, type FuzzRecord } from "../support/fuzz-records.js";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const PROCESSES = 3;
const RECORDS_PER_PROCESS = 500;
const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** Records no generator is likely to hit, sent to every process. */
const FIXED: FuzzRecord[] = [
  { text: deep(20_000) },
  { text: `{"version":1,"id":"deep-param","method":"session.prompt","params":{"delivery":"direct","text":${deep(20_000)}}}`, id: "deep-param" },
  { text: `{"version":1,"id":"deep-step","method":"plan.replace","params":{"steps":[{"title":"t","status":"pending","x":${deep(20_000)}}]}}`, id: "deep-step" },
  { text: `{"version":1,"id":"huge","method":"session.get_messages","params":{"start":1e308,"limit":1e999}}`, id: "huge" },
  ...["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty"].flatMap((key) => [
    { text: `{"version":1,"id":"top-${key}","method":"session.get_messages","params":{"${key}":{}}}`, id: `top-${key}` },
    { text: `{"version":1,"id":"step-${key}","method":"plan.replace","params":{"steps":[{"title":"t","status":"pending","${key}":{}}]}}`, id: `step-${key}` },
    { text: `{"version":1,"id":"env-${key}","method":"plan.get","${key}":1}`, id: `env-${key}` },
  ]),
];

function failure(seedNote: string, zi: ZiProcess, problems: string[]): string {
  return `${seedNote}\n${problems.slice(0, 20).join("\n")}\nstderr:\n${zi.stderr.slice(0, 2000)}`;
}

describe("fuzz: the built zi as a black box", () => {
  it(`answers ${PROCESSES} x ${RECORDS_PER_PROCESS} mutated, damaged and hostile records exactly once each, with spec codes`, async () => {
    const batches = fc.sample(recordBatch("b", RECORDS_PER_PROCESS), { seed: FUZZ_SEED, numRuns: PROCESSES });
    for (const [index, generated] of batches.entries()) {
      const records = [{ text: JSON.stringify({ version: 1, id: "select", method: "model.select", params: { provider: "faux", id: "echo" } }), id: "select" }, ...FIXED, ...generated];
      const zi = new ZiProcess();
      await zi.waitFor((f) => f.type === "ready");
      zi.send(...records.map((record) => record.text));
      const exit = await zi.close();
      const problems = frameProblems(zi.frames, records);
      if (exit.code !== 0) problems.push(`exit ${JSON.stringify(exit)}`);
      expect(failure(`ZI_FUZZ_SEED=${FUZZ_SEED} process ${index}`, zi, problems)).toBe(`ZI_FUZZ_SEED=${FUZZ_SEED} process ${index}\n\nstderr:\n${zi.stderr.slice(0, 2000)}`);
      for (const key of ["constructor", "__proto__", "toString"]) {
        expect(zi.frames.find((f) => f.id === `step-${key}`)).toMatchObject({ type: "protocol_error", error: { code: "invalid_request" } });
      }
    }
  }, 120_000);

  it("ends damaged byte streams with exactly one fatal invalid_framing and exit code 1, nothing but frames on stdout", async () => {
    const garbage = fc.sample(
      fc.tuple(recordBatch("g", 20), fc.uint8Array({ maxLength: 200 }), fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0x80])),
      { seed: FUZZ_SEED + 1, numRuns: 4 },
    );
    const cases = garbage.map(([records, bytes, invalid]) =>
      Buffer.concat([Buffer.from(records.map((r) => `${r.text}\n`).join("")), Buffer.from(bytes), Buffer.from(invalid), Buffer.from("\n")]),
    );
    // One record over the 16 MiB bound, with no LF at all.
    cases.push(Buffer.alloc(16 * 1024 * 1024 + 2, 0x61));
    for (const input of cases) {
      const zi = new ZiProcess();
      await zi.waitFor((f) => f.type === "ready");
      zi.send(input);
      const exit = await zi.close();
      const fatal = zi.frames.filter((f) => f.type === "protocol_error" && f.error.code === "invalid_framing");
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toMatchObject({ id: null, fatal: true });
      expect(exit.code).toBe(1);
      for (const frame of zi.frames.filter((f) => f.type === "protocol_error")) expect(PROTOCOL_CODES.has(frame.error.code)).toBe(true);
      expect(zi.frames.filter((f) => f.type === "protocol_error" && f.fatal)).toHaveLength(1);
    }
  }, 120_000);
});
