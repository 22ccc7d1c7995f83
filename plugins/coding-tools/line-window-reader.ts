import { open } from "node:fs/promises";
import { describeFileError, looksBinary } from "./text-file-reader.js";

export interface LineWindowRequest {
  /** First line to return, 1-based. */
  offset: number;
  /** Most lines to return. */
  limit: number;
  /** Most bytes of text to return (lines joined by "\n"). */
  maxBytes: number;
  signal: AbortSignal;
}

export interface LineWindow {
  /** The selected lines without their line ending (a CR before LF is dropped too). */
  lines: string[];
  totalLines: number;
  /** The first selected line alone exceeded maxBytes and was cut on a character boundary. */
  clippedLine: boolean;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Reads one window of lines by streaming the file in chunks: memory stays bounded by the window
 * whatever the file's size, and the whole file is still scanned to count its lines. Works on bytes,
 * so a multi-byte character split across chunks is decoded only once its line is whole.
 */
export class LineWindowReader {
  private lineNo = 1;
  private current: Buffer[] = [];
  private currentBytes = 0;
  private currentHasBytes = false;
  private readonly selected: Buffer[] = [];
  private selectedBytes = 0;
  private closed = false;
  private clippedLine = false;

  private constructor(private readonly request: LineWindowRequest) {}

  static async read(absolute: string, shown: string, request: LineWindowRequest): Promise<LineWindow> {
    return new LineWindowReader(request).scan(absolute, shown);
  }

  private async scan(absolute: string, shown: string): Promise<LineWindow> {
    const handle = await open(absolute, "r").catch((error: unknown) => {
      throw new Error(describeFileError(error, shown));
    });
    try {
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      let first = true;
      for (;;) {
        if (this.request.signal.aborted) throw new Error("read was interrupted.");
        const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
        if (bytesRead === 0) break;
        const chunk = buffer.subarray(0, bytesRead);
        if (first && looksBinary(chunk)) throw new Error(`${shown} is a binary file; read shows text files only.`);
        first = false;
        this.consume(chunk);
      }
    } finally {
      await handle.close();
    }
    if (this.currentHasBytes) this.endLine();
    const totalLines = this.lineNo - 1;
    return { lines: this.selected.map((line) => line.toString("utf8")), totalLines, clippedLine: this.clippedLine };
  }

  private consume(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      const newline = chunk.indexOf(10, pos);
      const end = newline < 0 ? chunk.length : newline;
      if (end > pos) {
        this.currentHasBytes = true;
        // Past the byte bound the line can only be clipped: keep just enough of it to clip.
        if (this.inWindow() && this.currentBytes <= this.request.maxBytes + 4) {
          this.current.push(Buffer.from(chunk.subarray(pos, end)));
          this.currentBytes += end - pos;
        }
      }
      if (newline < 0) break;
      this.endLine();
      pos = newline + 1;
    }
  }

  private inWindow(): boolean {
    const { offset, limit } = this.request;
    return !this.closed && this.lineNo >= offset && this.lineNo < offset + limit;
  }

  private endLine(): void {
    if (this.inWindow()) this.select(Buffer.concat(this.current, this.currentBytes));
    this.lineNo++;
    this.current = [];
    this.currentBytes = 0;
    this.currentHasBytes = false;
  }

  private select(raw: Buffer): void {
    const line = raw.length > 0 && raw[raw.length - 1] === 13 ? raw.subarray(0, raw.length - 1) : raw;
    const cost = line.length + (this.selected.length > 0 ? 1 : 0);
    const { maxBytes, limit } = this.request;
    if (this.selectedBytes + cost <= maxBytes) {
      this.selected.push(line);
      this.selectedBytes += cost;
      if (this.selected.length >= limit) this.closed = true;
      return;
    }
    this.closed = true;
    if (this.selected.length > 0) return;
    let cut = maxBytes;
    while (cut > 0 && (line[cut]! & 0xc0) === 0x80) cut--;
    this.selected.push(line.subarray(0, cut));
    this.clippedLine = true;
  }
}
