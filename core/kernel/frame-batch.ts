import type { ResponseBytes } from "./response-bytes.js";

/** `{"version":1,"sequence":`: what the writer puts before every frame's sequence number. */
const HEADER = Buffer.from('{"version":1,"sequence":');
const COMMA = 0x2c;
const LF = 0x0a;
const DIGIT_0 = 0x30;

/**
 * The frames of one event-loop turn on their way to the sink, in arrays kept from turn to turn (fresh
 * arrays every turn were most of what the writer allocated per request). A frame is a whole line when
 * it was given as text, or a ResponseBytes with its sequence number; `join` turns a run of them into
 * one write, a buffer when the run is only ResponseBytes.
 */
export class FrameBatch {
  length = 0;
  private readonly frames: (string | ResponseBytes)[] = [];
  private readonly sequences: number[] = [];
  /** The bytes each frame is accounted with (an overestimate; see FrameWriter). */
  private readonly sizes: number[] = [];

  /** `frame`: the whole line (header, members, LF) or a response kept as bytes, stamped `sequence`. */
  add(frame: string | ResponseBytes, sequence: number, bytes: number): void {
    const i = this.length++;
    this.frames[i] = frame;
    this.sequences[i] = sequence;
    this.sizes[i] = bytes;
  }

  size(i: number): number {
    return this.sizes[i];
  }

  isText(i: number): boolean {
    return typeof this.frames[i] === "string";
  }

  /**
   * Frames [from, to) as one write: a buffer when none of them is text (from `allocate`, given its
   * exact length), else text.
   */
  join(from: number, to: number, text: boolean, allocate: (length: number) => Buffer): string | Buffer {
    return text ? this.joinText(from, to) : this.joinBytes(from, to, allocate);
  }

  /** Drops the frames (and the references to them), keeping the arrays. */
  clear(): void {
    for (let i = 0; i < this.length; i++) this.frames[i] = "";
    this.length = 0;
  }

  private joinBytes(from: number, to: number, allocate: (length: number) => Buffer): Buffer {
    let length = 0;
    for (let i = from; i < to; i++) length += HEADER.length + digits(this.sequences[i]) + 1 + (this.frames[i] as ResponseBytes).bytes + 1;
    const out = allocate(length);
    let at = 0;
    for (let i = from; i < to; i++) {
      out.set(HEADER, at);
      at = writeDigits(out, at + HEADER.length, this.sequences[i]);
      out[at++] = COMMA;
      at = (this.frames[i] as ResponseBytes).writeInto(out, at);
      out[at++] = LF;
    }
    return out;
  }

  private joinText(from: number, to: number): string {
    if (to - from === 1) return this.line(from);
    const lines: string[] = [];
    for (let i = from; i < to; i++) lines.push(this.line(i));
    return lines.join("");
  }

  private line(i: number): string {
    const frame = this.frames[i];
    return typeof frame === "string" ? frame : `{"version":1,"sequence":${this.sequences[i]},${frame.text()}\n`;
  }
}

function digits(value: number): number {
  let count = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) count++;
  return count;
}

/** Writes a non-negative integer's decimal digits at `at`; returns the offset after them. */
function writeDigits(out: Buffer, at: number, value: number): number {
  const end = at + digits(value);
  let rest = value;
  for (let i = end - 1; i >= at; i--) {
    out[i] = DIGIT_0 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return end;
}
