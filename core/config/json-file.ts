import { randomBytes } from "node:crypto";
import { chmod, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { decodeText, FILE_LIMITS, readBoundedFile, readBoundedFileSync, type BoundedRead } from "./bounded-file-reader.js";
import { parseJson } from "../wire/json-depth.js";

export type JsonObjectRead =
  | { status: "missing" }
  /** `mode`: the file's permission bits. */
  | { status: "ok"; value: Record<string, unknown>; mode: number }
  | { status: "invalid"; reason: string };

export interface JsonWriteOptions {
  /** Exact file mode, applied before the file becomes visible. Default 0o600: private to the user. */
  mode?: number;
  /** Mode for directories this write has to create. Default 0o700. */
  dirMode?: number;
}

/**
 * A small JSON-object file: tolerant reads (missing is not an error, malformed is reported, not
 * thrown) and atomic writes (temporary file + rename), so a crash never leaves half a file behind.
 */
export class JsonFile {
  constructor(
    readonly path: string,
    private readonly maxBytes: number = FILE_LIMITS.maxSettingsBytes,
  ) {}

  /** Reads through the bounded reader: only a regular file of at most `maxBytes` is parsed. */
  async read(): Promise<JsonObjectRead> {
    return JsonFile.parse(await readBoundedFile(this.path, this.maxBytes));
  }

  /** For a synchronous cache miss; the same rules (it cannot hang on a FIFO or a device). */
  readSync(): JsonObjectRead {
    return JsonFile.parse(readBoundedFileSync(this.path, this.maxBytes));
  }

  private static parse(read: BoundedRead): JsonObjectRead {
    if (read.status !== "ok") return read.status === "missing" ? read : { status: "invalid", reason: read.reason };
    let value: unknown;
    try {
      value = parseJson(decodeText(read.bytes));
    } catch {
      return { status: "invalid", reason: "is not valid JSON" };
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { status: "invalid", reason: "is not a JSON object" };
    }
    return { status: "ok", value: value as Record<string, unknown>, mode: read.mode };
  }

  async writeObject(value: Record<string, unknown>, options: JsonWriteOptions = {}): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: options.dirMode ?? 0o700 });
    const tmp = `${this.path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      const mode = options.mode ?? 0o600;
      await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`, { flag: "wx", mode });
      // The umask may have stripped bits from `mode`; chmod makes the requested mode exact.
      await chmod(tmp, mode);
      await rename(tmp, this.path);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }
}
