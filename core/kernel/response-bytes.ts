/** `"type":"response","id":` : an `ok` response's members up to its id. */
const RESPONSE_HEAD = Buffer.from('"type":"response","id":');
const CLOSE_BRACE = 0x7d;

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
   * idJson: the id as JSON (`"..."`), idBytes its UTF-8 length; methodTail: `,"method":…,"ok":true,"result":`
   * as UTF-8; result: the result's JSON as UTF-8. The buffers are shared and never written to.
   */
  constructor(
    private readonly idJson: string,
    idBytes: number,
    private readonly methodTail: Buffer,
    private readonly result: Buffer,
  ) {
    this.bytes = RESPONSE_HEAD.length + idBytes + methodTail.length + result.length + 1;
  }

  /** Writes the members into `target` at `offset` (room for `bytes` is there); returns the offset after them. */
  writeInto(target: Buffer, offset: number): number {
    target.set(RESPONSE_HEAD, offset);
    let at = offset + RESPONSE_HEAD.length;
    at += target.write(this.idJson, at);
    target.set(this.methodTail, at);
    at += this.methodTail.length;
    target.set(this.result, at);
    at += this.result.length;
    target[at] = CLOSE_BRACE;
    return at + 1;
  }

  /** The members as text, for a write that joins this response with frames given as strings. */
  text(): string {
    return `${RESPONSE_HEAD.toString("latin1")}${this.idJson}${this.methodTail.toString("utf8")}${this.result.toString("utf8")}}`;
  }
}
