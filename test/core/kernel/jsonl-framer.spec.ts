import { describe, expect, it } from "@jest/globals";
import { JsonlFramer } from "../../../core/kernel/jsonl-framer.js";
import { RpcError } from "../../../core/kernel/rpc-error.js";

const MiB = 1024 * 1024;

function feed(framer: JsonlFramer, ...chunks: Buffer[]): string[] {
  const out: string[] = [];
  for (const chunk of chunks) {
    framer.push(chunk);
    for (let line = framer.next(); line !== null; line = framer.next()) out.push(line);
  }
  return out;
}

function framingError(run: () => unknown): RpcError {
  try {
    run();
  } catch (error) {
    return error as RpcError;
  }
  throw new Error("expected an invalid_framing error");
}

describe("JsonlFramer", () => {
  it("splits records on LF and strips one trailing CR", () => {
    const framer = new JsonlFramer(1024);
    expect(feed(framer, Buffer.from('{"a":1}\r\n{"b":2}\n'))).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("joins a record split across reads in the middle of a multi-byte character", () => {
    const text = '{"t":"héllo €𝄞"}\n';
    const bytes = Buffer.from(text);
    const euro = bytes.indexOf(Buffer.from("€"));
    const clef = bytes.indexOf(Buffer.from("𝄞"));
    const framer = new JsonlFramer(1024);
    const chunks = [bytes.subarray(0, euro + 1), bytes.subarray(euro + 1, clef + 2), bytes.subarray(clef + 2)];
    expect(feed(framer, ...chunks)).toEqual([text.slice(0, -1)]);
  });

  it("keeps U+2028 and U+2029 inside a record (readline would split there)", () => {
    const framer = new JsonlFramer(1024);
    const record = '{"t":"a\u2028b\u2029c"}';
    expect(feed(framer, Buffer.from(`${record}\n`))).toEqual([record]);
  });

  it("rejects invalid UTF-8 as invalid_framing", () => {
    const framer = new JsonlFramer(1024);
    const bad = Buffer.concat([Buffer.from('{"t":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
    const error = framingError(() => feed(framer, bad));
    expect(error.code).toBe("invalid_framing");
  });

  it("rejects overlong and surrogate UTF-8 encodings", () => {
    for (const bytes of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
      const framer = new JsonlFramer(1024);
      expect(framingError(() => feed(framer, Buffer.from([...bytes, 0x0a]))).code).toBe("invalid_framing");
    }
  });

  it("accepts a record of exactly the bound and rejects one byte more", () => {
    const record = Buffer.alloc(16 * MiB, 0x20);
    const ok = new JsonlFramer(16 * MiB);
    expect(feed(ok, record, Buffer.from("\n"))[0].length).toBe(16 * MiB);
    const tooBig = new JsonlFramer(16 * MiB);
    const error = framingError(() => feed(tooBig, record, Buffer.from(" \n")));
    expect(error.code).toBe("invalid_framing");
  });

  it("accepts a record of exactly the bound followed by CRLF", () => {
    const framer = new JsonlFramer(1024);
    expect(feed(framer, Buffer.alloc(1024, 0x20), Buffer.from("\r\n"))[0].length).toBe(1024);
  });

  it("fails while buffering, before the LF of an endless record arrives", () => {
    const framer = new JsonlFramer(1024);
    framer.push(Buffer.alloc(600, 0x20));
    expect(framer.next()).toBeNull();
    framer.push(Buffer.alloc(600, 0x20));
    expect(framingError(() => framer.next()).code).toBe("invalid_framing");
  });

  it("hands out an unterminated last record at end of input", () => {
    const framer = new JsonlFramer(1024);
    expect(feed(framer, Buffer.from('{"a":1}\n{"b"'), Buffer.from(":2}"))).toEqual(['{"a":1}']);
    expect(framer.finish()).toBe('{"b":2}');
    expect(framer.finish()).toBeNull();
  });

  it("keeps a byte-order mark so that it fails JSON parsing instead of vanishing", () => {
    const framer = new JsonlFramer(1024);
    expect(feed(framer, Buffer.from("\ufeff{}\n"))).toEqual(["\ufeff{}"]);
  });
});
