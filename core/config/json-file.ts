import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { chmod, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { parseJson } from "../kernel/json-depth.js";

export type JsonObjectRead =
  | { status: "missing" }
  | { status: "ok"; value: Record<string, unknown> }
  | { status: "invalid"; reason: string };

export interface JsonWriteOptions {
  /** Exact file mode (e.g. 0o600 for credentials); applied before the file becomes visible. */
  mode?: number;
  /** Mode for directories this write has to create. */
  dirMode?: number;
}

/**
 * A small JSON-object file: tolerant reads (missing is not an error, malformed is reported, not
 * thrown) and atomic writes (temporary file + rename), so a crash never leaves half a file behind.
 */
export class JsonFile {
  constructor(readonly path: string) {}

  readObject(): JsonObjectRead {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return { status: "missing" };
      return { status: "invalid", reason: `cannot be read (${code ?? "unknown error"})` };
    }
    let value: unknown;
    try {
      value = parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch {
      return { status: "invalid", reason: "is not valid JSON" };
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { status: "invalid", reason: "is not a JSON object" };
    }
    return { status: "ok", value: value as Record<string, unknown> };
  }

  async writeObject(value: Record<string, unknown>, options: JsonWriteOptions = {}): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: options.dirMode });
    const tmp = `${this.path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`, { flag: "wx", mode: options.mode ?? 0o644 });
      // The umask may have stripped bits from `mode`; chmod makes the requested mode exact.
      if (options.mode !== undefined) await chmod(tmp, options.mode);
      await rename(tmp, this.path);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }
}
