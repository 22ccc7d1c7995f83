import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import { type TailText, tailBounded } from "./text-bounds.js";

export interface CollectedOutput extends TailText {
  totalBytes: number;
  totalLines: number;
  /** Set when the output outgrew the bounds: the file holds all of it. */
  logPath?: string;
  /** Why the full log could not be kept, if it could not. */
  logError?: string;
}

interface Chunk {
  text: string;
  bytes: number;
}

/**
 * Keeps a command's combined output: a rolling tail in memory (enough for any bounded view) and,
 * once the output outgrows the bounds, the complete text in a log file under `logDir`. Output that
 * stays within bounds never touches the disk.
 */
export class BashOutputCollector {
  private readonly chunks: Chunk[] = [];
  private keptBytes = 0;
  private totalBytes = 0;
  private totalLines = 0;
  private endsWithNewline = true;
  private spilled = false;
  private log?: WriteStream;
  private logPath?: string;
  private logError?: string;

  constructor(
    private readonly logDir: string,
    private readonly maxLines: number,
    private readonly maxBytes: number,
  ) {}

  get bytes(): number {
    return this.totalBytes;
  }

  append(text: string): void {
    if (text.length === 0) return;
    const bytes = Buffer.byteLength(text, "utf8");
    this.chunks.push({ text, bytes });
    this.keptBytes += bytes;
    this.totalBytes += bytes;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.totalLines++;
    this.endsWithNewline = text.endsWith("\n");
    if (this.spilled) this.log?.write(text);
    else if (this.totalBytes > this.maxBytes || this.lineCount() > this.maxLines) this.spill();
    // Every bounded view needs at most the last maxBytes bytes, so older chunks can go. Keeping
    // strictly more than maxBytes once anything was dropped makes every view report the cut.
    while (this.chunks.length > 1 && this.keptBytes - this.chunks[0]!.bytes > this.maxBytes) {
      this.keptBytes -= this.chunks.shift()!.bytes;
    }
  }

  /** The bounded tail of what has arrived so far. */
  tail(maxLines = this.maxLines, maxBytes = this.maxBytes): TailText {
    return tailBounded(this.chunks.map((c) => c.text).join(""), maxLines, maxBytes);
  }

  /** Flushes the log (if any) and returns the bounded tail with the totals. */
  async close(): Promise<CollectedOutput> {
    if (this.log) {
      const log = this.log;
      await new Promise<void>((resolve) => {
        if (log.destroyed) return resolve();
        log.once("error", () => resolve());
        log.end(() => resolve());
      });
    }
    const result: CollectedOutput = { ...this.tail(), totalBytes: this.totalBytes, totalLines: this.lineCount() };
    if (this.logPath && !this.logError) result.logPath = this.logPath;
    if (this.logError) result.logError = this.logError;
    return result;
  }

  private lineCount(): number {
    return this.totalLines + (this.endsWithNewline || this.totalBytes === 0 ? 0 : 1);
  }

  /** Nothing has been dropped yet when this runs (the total just crossed the bound), so the file gets everything. */
  private spill(): void {
    this.spilled = true;
    try {
      // Command output can hold anything the user can read: private like the journal holding its tail.
      mkdirSync(this.logDir, { recursive: true, mode: 0o700 });
      this.logPath = join(this.logDir, `bash-${Date.now()}-${randomBytes(4).toString("hex")}.log`);
      this.log = createWriteStream(this.logPath, { flags: "wx", mode: 0o600 });
      this.log.on("error", (error) => (this.logError ??= error.message));
      for (const chunk of this.chunks) this.log.write(chunk.text);
    } catch (error) {
      this.logError = error instanceof Error ? error.message : String(error);
      this.log = undefined;
    }
  }
}
