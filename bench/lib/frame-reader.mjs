// Reads a child's protocol stdout: splits on LF bytes (never on decoded text, so U+2028 or a
// multi-byte character split across chunks cannot cut a frame) and checks that `sequence` runs
// 1, 2, 3, ... with no gap. The hot path reads `sequence` and `type` straight from the bytes, so the
// reader costs the same tiny amount per frame whichever child it reads and never becomes the
// bottleneck of a throughput measurement; lines without the usual prefix fall back to JSON.parse.

const LF = 0x0a;
const PREFIX = Buffer.from('{"version":1,"sequence":');
const TYPE_KEY = Buffer.from('"type":"');

/** Frame types as constants, so the hot path allocates no string per frame. */
export const FrameType = Object.freeze({
  ready: "ready",
  response: "response",
  protocolError: "protocol_error",
  sessionEvent: "session_event",
});

export class FrameReader {
  /** Called for every frame in order: (line: Buffer without LF, sequence: number, type: string). */
  handler = null;
  /** Called once with an Error when the stream breaks the framing rules. */
  onFailure = null;
  frames = 0;
  bytes = 0;
  lastSequence = 0;
  failure = null;
  #carry = [];
  #carryBytes = 0;

  /** Feeds one chunk; exported for the self-check, a stream source calls it per 'data'. */
  push(chunk) {
    if (this.failure) return;
    let start = 0;
    let nl = chunk.indexOf(LF, start);
    while (nl !== -1) {
      let line = chunk.subarray(start, nl);
      if (this.#carry.length > 0) {
        this.#carry.push(line);
        line = Buffer.concat(this.#carry, this.#carryBytes + line.length);
        this.#carry = [];
        this.#carryBytes = 0;
      }
      this.#frame(line);
      if (this.failure) return;
      start = nl + 1;
      nl = chunk.indexOf(LF, start);
    }
    if (start < chunk.length) {
      this.#carry.push(chunk.subarray(start));
      this.#carryBytes += chunk.length - start;
    }
  }

  /** At end of stream: a trailing unterminated line is a protocol violation (frames end with LF). */
  end() {
    if (this.failure) return;
    if (this.#carryBytes > 0) this.fail(new Error(`stdout ended inside a frame (${this.#carryBytes} bytes without LF)`));
  }

  fail(error) {
    if (this.failure) return;
    this.failure = error;
    this.onFailure?.(error);
  }

  #frame(line) {
    let sequence = -1;
    let type = null;
    if (line.length > PREFIX.length && line.compare(PREFIX, 0, PREFIX.length, 0, PREFIX.length) === 0) {
      let i = PREFIX.length;
      let value = 0;
      let digits = 0;
      for (; i < line.length && line[i] >= 0x30 && line[i] <= 0x39; i++, digits++) value = value * 10 + (line[i] - 0x30);
      const keyEnd = i + 1 + TYPE_KEY.length;
      if (digits > 0 && line[i] === 0x2c && keyEnd <= line.length && line.compare(TYPE_KEY, 0, TYPE_KEY.length, i + 1, keyEnd) === 0) {
        sequence = value;
        type = typeAt(line, i + 1 + TYPE_KEY.length);
      }
    }
    if (type === null) ({ sequence, type } = parsedHeader(line));
    if (type === null) return this.fail(new Error(`not a protocol frame: ${preview(line)}`));
    if (sequence !== this.lastSequence + 1) {
      return this.fail(new Error(`frame sequence gap: expected ${this.lastSequence + 1}, got ${sequence} (${preview(line)})`));
    }
    this.lastSequence = sequence;
    this.frames++;
    this.bytes += line.length + 1;
    this.handler?.(line, sequence, type);
  }
}

const TYPE_NAMES = Object.values(FrameType).map((name) => ({ name, bytes: Buffer.from(`${name}"`) }));

/** Reads the type name in place; unknown names take the slow path so they are reported as they are. */
function typeAt(line, at) {
  for (const { name, bytes } of TYPE_NAMES) {
    const end = at + bytes.length;
    if (end <= line.length && line.compare(bytes, 0, bytes.length, at, end) === 0) return name;
  }
  return null;
}

function parsedHeader(line) {
  let frame;
  try {
    frame = JSON.parse(line.toString("utf8"));
  } catch {
    return { sequence: -1, type: null };
  }
  if (frame === null || typeof frame !== "object" || frame.version !== 1 || !Number.isInteger(frame.sequence)) {
    return { sequence: -1, type: null };
  }
  const known = Object.values(FrameType).includes(frame.type);
  return { sequence: frame.sequence, type: known ? frame.type : null };
}

export function preview(line, max = 200) {
  const text = line.subarray(0, max).toString("utf8");
  return line.length > max ? `${text}… (${line.length} bytes)` : text;
}
