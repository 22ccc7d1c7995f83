import { isAscii } from "node:buffer";
import { RpcError } from "./rpc-error.js";

const LF = 0x0a;
const CR = 0x0d;

/** Buffer's own Latin-1 decoding (what `toString("latin1", start, end)` calls once it has checked its arguments). */
interface Latin1Slicing {
  latin1Slice(start: number, end: number): string;
}

/**
 * Splits a byte stream into LF-terminated records. It works on bytes, not strings: Node's readline
 * would also split on U+2028/U+2029, which are legal inside JSON strings, and decoding per chunk would
 * break multi-byte characters split across reads. Each byte is scanned once; a record spanning chunks is
 * concatenated once, when its LF arrives. The size bound is enforced while buffering, so an endless
 * record never grows memory past the bound.
 */
export class JsonlFramer {
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  private parts: Buffer[] = [];
  private partsBytes = 0;
  private chunk: Buffer | null = null;
  /** Whether the whole current chunk is ASCII: checked once per chunk, not once per record. */
  private chunkAscii = false;
  private pos = 0;

  constructor(private readonly maxRecordBytes: number) {}

  /** Hands the framer the next chunk. Call `next()` until it returns null before pushing again. */
  push(chunk: Buffer): void {
    this.chunk = chunk;
    this.chunkAscii = isAscii(chunk);
    this.pos = 0;
  }

  /**
   * The next complete record as a string (trailing CR stripped), or null when more input is needed.
   * Throws RpcError `invalid_framing` for a record over the bound or one that is not strict UTF-8.
   */
  next(): string | null {
    const chunk = this.chunk;
    if (chunk === null) return null;
    const start = this.pos;
    const nl = chunk.indexOf(LF, start);
    if (nl === -1) {
      this.stash(chunk.subarray(start));
      this.chunk = null;
      return null;
    }
    this.pos = nl + 1;
    if (this.pos >= chunk.length) this.chunk = null;
    // A record within one chunk is read in place; one that spans chunks is concatenated once, here.
    if (this.parts.length === 0) return this.decode(chunk, start, nl, this.chunkAscii);
    this.parts.push(chunk.subarray(start, nl));
    const record = Buffer.concat(this.parts, this.partsBytes + nl - start);
    this.parts = [];
    this.partsBytes = 0;
    return this.decode(record, 0, record.length, isAscii(record));
  }

  /** At end of input: the unterminated last record, if any (processed like any other record). */
  finish(): string | null {
    if (this.parts.length === 0) return null;
    const record = Buffer.concat(this.parts, this.partsBytes);
    this.parts = [];
    this.partsBytes = 0;
    return this.decode(record, 0, record.length, isAscii(record));
  }

  /** Drops everything buffered: a closing connection discards queued input. */
  discard(): void {
    this.parts = [];
    this.partsBytes = 0;
    this.chunk = null;
  }

  private stash(rest: Buffer): void {
    if (rest.length === 0) return;
    this.parts.push(rest);
    this.partsBytes += rest.length;
    // One extra byte of headroom: a record of exactly the bound may still be followed by CR before LF.
    if (this.partsBytes > this.maxRecordBytes + 1) this.oversized();
  }

  /** bytes[start, end) as a record; `ascii` says the bytes are known to be ASCII. */
  private decode(bytes: Buffer, start: number, end: number, ascii: boolean): string {
    if (end > start && bytes[end - 1] === CR) end--;
    if (end - start > this.maxRecordBytes) this.oversized();
    // Nearly every record is ASCII, which is valid UTF-8 and reads the same as Latin-1: the cheapest
    // decoding, instead of the strict decoder's validation and UTF-8 decoding.
    if (ascii) return (bytes as unknown as Latin1Slicing).latin1Slice(start, end);
    try {
      return this.decoder.decode(bytes.subarray(start, end));
    } catch {
      this.discard();
      throw new RpcError("invalid_framing", "input is not valid UTF-8");
    }
  }

  private oversized(): never {
    this.discard();
    throw new RpcError("invalid_framing", `input record exceeds ${this.maxRecordBytes} bytes`);
  }
}
