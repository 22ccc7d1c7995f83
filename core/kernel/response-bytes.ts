/** `"type":"response","id":` : an `ok` response's members up to its id. */
const RESPONSE_HEAD = Buffer.from('"type":"response","id":');
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;

/**
 * An `ok` response whose result is already UTF-8 (a frozen result, encoded once), kept as its parts:
 * the writer copies them into the bytes it writes, so answering `session.get_state` builds no
 * response string, and no string has to be flattened and encoded again on its way to the pipe (that
 * garbage was most of what a round trip allocated; docs/performance.md).
 */
export class ResponseBytes {
  /** The UTF-8 length of the members (the frame without `{"version":1,"sequence":N,` and LF). */
  readonly bytes: number;

  /**
   * id: the id, written between quotes as it is when `idIsPlain` (printable ASCII without quote or
   * backslash: its JSON is itself quoted), else as JSON.stringify writes it; methodTail:
   * `,"method":…,"ok":true,"result":` as UTF-8; result: the result's JSON as UTF-8. The buffers are
   * shared and never written to.
   */
  constructor(
    private readonly id: string,
    private readonly idIsPlain: boolean,
    private readonly methodTail: Buffer,
    private readonly result: Buffer,
  ) {
    const idBytes = idIsPlain ? id.length + 2 : Buffer.byteLength(JSON.stringify(id));
    this.bytes = RESPONSE_HEAD.length + idBytes + methodTail.length + result.length + 1;
  }

  /** Whether `id` can be written as it is between quotes: printable ASCII, no quote, no backslash. */
  static plainId(id: string): boolean {
    for (let i = 0; i < id.length; i++) {
      const code = id.charCodeAt(i);
      if (code < 0x20 || code > 0x7e || code === QUOTE || code === 0x5c) return false;
    }
    return true;
  }

  /** Writes the members into `target` at `offset` (room for `bytes` is there); returns the offset after them. */
  writeInto(target: Buffer, offset: number): number {
    target.set(RESPONSE_HEAD, offset);
    let at = offset + RESPONSE_HEAD.length;
    if (this.idIsPlain) {
      const id = this.id;
      target[at++] = QUOTE;
      for (let i = 0; i < id.length; i++) target[at++] = id.charCodeAt(i);
      target[at++] = QUOTE;
    } else {
      at += target.write(JSON.stringify(this.id), at);
    }
    target.set(this.methodTail, at);
    at += this.methodTail.length;
    target.set(this.result, at);
    at += this.result.length;
    target[at] = CLOSE_BRACE;
    return at + 1;
  }

  /** The members as text, for a write that joins this response with frames given as strings. */
  text(): string {
    return `${RESPONSE_HEAD.toString("latin1")}${JSON.stringify(this.id)}${this.methodTail.toString("utf8")}${this.result.toString("utf8")}}`;
  }
}
