import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A file bigger than this is not checkpointed (its rewind reports it as not covered). */
export const MAX_CHECKPOINT_FILE_BYTES = 16 * 1024 * 1024;
/** The store's bound: past it, the least recently used contents go first. */
const MAX_STORE_BYTES = 512 * 1024 * 1024;
const HASH = /^[0-9a-f]{64}$/;

export const contentHash = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

/**
 * The contents files had before Zi's tools changed them, content-addressed (`<sha256>`, 0600, in a
 * 0700 directory under ZI_HOME): the same content is kept once, whatever session or file it came
 * from. Bounded: when a new content takes it past MAX_STORE_BYTES, the least recently used go.
 */
export class CheckpointStore {
  constructor(private readonly dir: string) {}

  /** Keeps `bytes` and returns their hash (a content already kept is only marked as used). */
  put(bytes: Buffer): string {
    const hash = contentHash(bytes);
    const file = join(this.dir, hash);
    try {
      const now = new Date();
      utimesSync(file, now, now);
      return hash;
    } catch {
      // not kept yet
    }
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, bytes, { mode: 0o600 });
    renameSync(temporary, file);
    this.prune(hash);
    return hash;
  }

  /** The content of `hash`, or undefined when it is not (or no longer) kept. */
  get(hash: string): Buffer | undefined {
    if (!HASH.test(hash)) return undefined;
    try {
      const fd = openSync(join(this.dir, hash), constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        if (!fstatSync(fd).isFile()) return undefined;
        const bytes = readFileSync(fd);
        return contentHash(bytes) === hash ? bytes : undefined;
      } finally {
        closeSync(fd);
      }
    } catch {
      return undefined;
    }
  }

  /** Drops the least recently used contents (never `keep`) until the store is within its bound. */
  private prune(keep: string): void {
    const kept: { name: string; size: number; used: number }[] = [];
    let total = 0;
    for (const name of readdirSync(this.dir)) {
      if (!HASH.test(name)) continue;
      try {
        const stats = statSync(join(this.dir, name));
        kept.push({ name, size: stats.size, used: stats.mtimeMs });
        total += stats.size;
      } catch {
        // gone meanwhile
      }
    }
    if (total <= MAX_STORE_BYTES) return;
    kept.sort((a, b) => a.used - b.used);
    for (const item of kept) {
      if (total <= MAX_STORE_BYTES) break;
      if (item.name === keep) continue;
      try {
        unlinkSync(join(this.dir, item.name));
        total -= item.size;
      } catch {
        // gone meanwhile
      }
    }
  }
}
