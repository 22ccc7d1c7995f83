/** The bounds of one child's stderr log (docs/mcp.md states them). */
export const CHILD_STDERR_LIMITS = {
  /** Lines passed on per second, per child; the rest are counted and dropped. */
  linesPerSecond: 100,
  /** Bytes passed on per second, per child (a few long lines count as many short ones). */
  bytesPerSecond: 64 * 1024,
  /** A longer line is passed on clipped to this many bytes (a line never ended is cut there too). */
  maxLineBytes: 4 * 1024,
} as const;

const LF = 0x0a;
const WINDOW_MS = 1000;

/**
 * One child's stderr (an MCP server's, a tool's, an extension's child), read into Zi's log bounded
 * and rate-limited: split on LF bytes (Node's readline would also split on U+2028), each line clipped
 * to maxLineBytes, at most linesPerSecond lines and bytesPerSecond bytes passed on per second. What
 * is over the rate is dropped and counted, and `[zi: N lines of <child> stderr dropped]` says so once
 * the window ends. So a child that floods its stderr costs Zi a bounded amount of memory and of its
 * own stderr, whether or not anyone reads that. The last `tailBytes` it wrote, dropped lines
 * included, are kept for failure reasons.
 */
export class ChildStderrLog {
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** The current line grew past maxLineBytes: its first piece was taken, the rest is skipped. */
  private clipping = false;
  private windowStart = 0;
  private windowLines = 0;
  private windowBytes = 0;
  private dropped = 0;
  private noteTimer: NodeJS.Timeout | undefined;
  private tailText = "";

  constructor(
    /** How the note names the child (`MCP server github`). */
    private readonly child: string,
    /** Passes one line on (prefixed and redacted by the caller). */
    private readonly write: (line: string) => void,
    private readonly tailBytes = 0,
    private readonly limits: { linesPerSecond: number; bytesPerSecond: number; maxLineBytes: number } = CHILD_STDERR_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The last bytes the child wrote to stderr, trimmed. */
  get tail(): string {
    return this.tailText.trim();
  }

  /** A chunk read from the child's stderr. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(LF, start); newline >= 0; newline = chunk.indexOf(LF, start)) {
      this.append(chunk.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  /** The child's stderr closed: its last unended line, then the count of what was dropped. */
  end(): void {
    if (this.partialBytes > 0 || this.clipping) this.endLine();
    this.flushNote();
  }

  private append(piece: Buffer): void {
    if (this.clipping) return;
    const room = this.limits.maxLineBytes - this.partialBytes;
    if (piece.length <= room) {
      this.partial.push(Buffer.from(piece));
      this.partialBytes += piece.length;
      return;
    }
    // A line longer than the bound: its first maxLineBytes are kept, the rest is not held in memory.
    this.partial.push(Buffer.from(piece.subarray(0, room)));
    this.partialBytes += room;
    this.clipping = true;
  }

  private endLine(): void {
    const clipped = this.clipping;
    let text = Buffer.concat(this.partial, this.partialBytes).toString("utf8").replace(/\r$/, "");
    this.partial = [];
    this.partialBytes = 0;
    this.clipping = false;
    if (clipped) text += " [zi: line clipped]";
    if (this.tailBytes > 0) this.tailText = `${this.tailText}${text}\n`.slice(-this.tailBytes);
    this.pass(text);
  }

  private pass(line: string): void {
    const now = this.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.flushNote();
      this.windowStart = now;
      this.windowLines = 0;
      this.windowBytes = 0;
    }
    const bytes = Buffer.byteLength(line) + 1;
    if (this.windowLines + 1 > this.limits.linesPerSecond || this.windowBytes + bytes > this.limits.bytesPerSecond) {
      this.dropped++;
      // The note comes when the window ends, even if the child says nothing more.
      this.noteTimer ??= setTimeout(() => this.flushNote(), Math.max(0, this.windowStart + WINDOW_MS - now)).unref();
      return;
    }
    this.windowLines++;
    this.windowBytes += bytes;
    this.write(line);
  }

  private flushNote(): void {
    if (this.noteTimer) clearTimeout(this.noteTimer);
    this.noteTimer = undefined;
    if (this.dropped === 0) return;
    const count = this.dropped;
    this.dropped = 0;
    this.write(`[zi: ${count} line${count === 1 ? "" : "s"} of ${this.child} stderr dropped]`);
  }
}
