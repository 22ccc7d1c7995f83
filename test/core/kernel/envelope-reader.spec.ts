import { describe, expect, it } from "@jest/globals";
import { EnvelopeRejection, EnvelopeReader } from "../../../core/kernel/envelope-reader.js";

const envelope = new EnvelopeReader(256);

/** What parse must return for a line, derived from JSON.parse alone (the general path's reading). */
function expected(line: string) {
  const value = JSON.parse(line) as { id: string; method: string; params?: Record<string, unknown> };
  return { id: value.id, method: value.method, params: value.params };
}

describe("EnvelopeReader: the canonical request read without JSON.parse", () => {
  it("reads the canonical form as JSON.parse does", () => {
    for (const line of [
      '{"version":1,"id":"a","method":"session.get_state"}',
      '{"version":1,"id":"f0-100000-99999","method":"session.get_state"}',
      '{"version":1,"id":"日本語 ✓ \u2028","method":"x"}',
      '{"version":1,"id":"a","method":""}',
    ]) {
      expect(envelope.parse(line)).toEqual(expected(line));
    }
  });

  it("gives near-misses the general path, with JSON.parse's reading or the usual rejection", () => {
    const same = [
      '{"version":1,"id":"a\\"b","method":"m"}', // escaped quote in the id
      '{"version":1,"id":"a\\\\","method":"m"}', // escaped backslash ending the id
      '{"version":1,"id":"a","method":"m\\u0041"}', // escape in the method
      '{"version":1,"id":"a","method":"m","params":{"x":1}}',
      '{"version":1,"id":"a","method":"m" }',
      '{"version":1,"id":"a","method":"m","params":{}}',
      '{"version":1,"id":"a","method":"m","id":"b"}', // a repeated key: JSON.parse keeps the last
    ];
    for (const line of same) expect(envelope.parse(line)).toEqual(expected(line));

    const rejected: [string, string, string | null][] = [
      ['{"version":1,"id":"","method":"m"}', "invalid_request", null], // empty id
      [`{"version":1,"id":"${"x".repeat(257)}","method":"m"}`, "invalid_request", null], // id over 256 bytes
      ['{"version":1,"id":"a","method":"m","extra":"z"}', "invalid_request", "a"], // unknown member
      ['{"version":1,"id":"a\tb","method":"m"}', "parse_error", null], // raw control character: not JSON
      ['{"version":1,"id":"a","method":"m"}}', "parse_error", null],
    ];
    for (const [line, code, id] of rejected) {
      const result = envelope.parse(line);
      expect(result).toBeInstanceOf(EnvelopeRejection);
      expect((result as EnvelopeRejection).error.code).toBe(code);
      expect((result as EnvelopeRejection).id).toBe(id);
    }
  });
});
