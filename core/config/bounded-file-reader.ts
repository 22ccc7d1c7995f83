import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { AsyncFs } from "./async-fs.js";

/**
 * Size bounds of the files Zi reads. Configuration is small; a bigger file is a mistake or an attack
 * (a symlink to a huge log), and reading it whole would only cost memory.
 */
export const FILE_LIMITS = {
  /** settings.json (global and project), auth.json. */
  maxSettingsBytes: 1024 * 1024,
  /** models.json. */
  maxModelsFileBytes: 4 * 1024 * 1024,
  /** The `--faux-script` file. */
  maxFauxScriptBytes: 16 * 1024 * 1024,
  /** A journal resumed with `--session FILE`: it is indexed in memory whole. */
  maxJournalBytes: 1024 * 1024 * 1024,
  /** A delegation profile (`agents/*.md`): front matter and the child's system prompt. */
  maxProfileBytes: 1024 * 1024,
} as const;

export type BoundedRead =
  | { status: "missing" }
  /** `mode` is the permission bits of the file actually read (after following symlinks). */
  | { status: "ok"; bytes: Buffer; mode: number }
  /** `reason` completes a sentence about the file: "is a FIFO, not a regular file". */
  | { status: "refused"; reason: string };

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever. It changes
// nothing for regular files, the only kind read past the fstat check.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
const CHUNK_BYTES = 64 * 1024;

/** "is a FIFO, not a regular file", or undefined for a regular file. */
function notRegularReason(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  const kind = stats.isDirectory()
    ? "a directory"
    : stats.isFIFO()
      ? "a FIFO"
      : stats.isCharacterDevice()
        ? "a character device"
        : stats.isBlockDevice()
          ? "a block device"
          : stats.isSocket()
            ? "a socket"
            : "not a file";
  return `is ${kind}, not a regular file`;
}

function tooLargeReason(maxBytes: number): string {
  return `is larger than ${maxBytes} bytes`;
}

/** Why a file with these stats is not read at all (not a regular file, or already over the bound). */
export function refusalReason(stats: Stats, maxBytes: number): string | undefined {
  return notRegularReason(stats) ?? (stats.size > maxBytes ? tooLargeReason(maxBytes) : undefined);
}

/**
 * Collects a file's bytes, sized by fstat but growing if the file does (or reports size 0, as some
 * virtual files do), up to one byte past the bound: reading that byte proves the file too large.
 */
class BoundedBuffer {
  private buffer: Buffer;
  length = 0;

  constructor(
    expectedBytes: number,
    private readonly maxBytes: number,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(expectedBytes + 1, CHUNK_BYTES)));
  }

  /** Where the next read goes: never empty, never past `maxBytes + 1` in total. */
  space(): Buffer {
    if (this.length === this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.maxBytes + 1, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    return this.buffer.subarray(this.length);
  }

  /** False once more than `maxBytes` have been read. */
  commit(bytesRead: number): boolean {
    this.length += bytesRead;
    return this.length <= this.maxBytes;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function openFailure(error: unknown): { status: "missing" } | { status: "refused"; reason: string } {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return { status: "missing" };
  return { status: "refused", reason: `cannot be read (${code ?? "unknown error"})` };
}

type RegularRead = { status: "missing" } | { status: "refused"; reason: string } | { status: "ok"; bytes: Buffer; mode: number; truncated: boolean };

/**
 * The one asynchronous read: opens without waiting, refuses what is not a regular file after an fstat
 * of the opened descriptor, and reads at most `maxBytes + 1` bytes. A file past the bound is refused
 * (`whole`) or cut to its first `maxBytes` (`prefix`). Through AsyncFs: the settings, credentials
 * and models files are read before a first response.
 */
async function readRegular(path: string, maxBytes: number, mode: "whole" | "prefix"): Promise<RegularRead> {
  let fd: number;
  try {
    fd = await AsyncFs.open(path, READ_FLAGS);
  } catch (error) {
    return openFailure(error);
  }
  try {
    const stats = await AsyncFs.fstat(fd);
    const refusal = mode === "whole" ? refusalReason(stats, maxBytes) : notRegularReason(stats);
    if (refusal) return { status: "refused", reason: refusal };
    const collected = new BoundedBuffer(Math.min(stats.size, maxBytes), maxBytes);
    for (;;) {
      const space = collected.space();
      const { bytesRead } = await AsyncFs.read(fd, space, 0, space.length, collected.length);
      if (bytesRead === 0) break;
      if (collected.commit(bytesRead)) continue;
      if (mode === "whole") return { status: "refused", reason: tooLargeReason(maxBytes) };
      return { status: "ok", bytes: collected.bytes().subarray(0, maxBytes), mode: stats.mode, truncated: true };
    }
    return { status: "ok", bytes: collected.bytes(), mode: stats.mode, truncated: false };
  } catch (error) {
    return openFailure(error);
  } finally {
    await AsyncFs.close(fd).catch(() => undefined);
  }
}

/**
 * Reads a whole regular file of at most `maxBytes`, without ever waiting on something that is not a
 * file: FIFOs, devices (`/dev/zero`), directories and sockets are refused after an fstat of the
 * opened descriptor (so a symlink is judged by its target, and no swap can slip in between check
 * and read). The bound is enforced on the bytes read, not only on the size fstat reported, so a
 * file that grows while it is read is refused too.
 */
export async function readBoundedFile(path: string, maxBytes: number): Promise<BoundedRead> {
  const read = await readRegular(path, maxBytes, "whole");
  return read.status === "ok" ? { status: "ok", bytes: read.bytes, mode: read.mode } : read;
}

export type PrefixRead =
  | { status: "missing" }
  /** `truncated`: the file had more than `maxBytes`; `bytes` are its first `maxBytes`. */
  | { status: "ok"; bytes: Buffer; truncated: boolean }
  | { status: "refused"; reason: string };

/**
 * The first `maxBytes` of a regular file, with the same refusals as `readBoundedFile` for anything
 * else (FIFOs, devices, directories, sockets): for files that are shown clipped rather than refused
 * when they are too long (context files such as AGENTS.md). Reads at most `maxBytes + 1` bytes, the
 * extra byte proving there was more, however large the file is or grows.
 */
export async function readFilePrefix(path: string, maxBytes: number): Promise<PrefixRead> {
  const read = await readRegular(path, maxBytes, "prefix");
  return read.status === "ok" ? { status: "ok", bytes: read.bytes, truncated: read.truncated } : read;
}

/**
 * The same rules for the few reads that must be synchronous (a constructor, a cache miss). Opening
 * with O_NONBLOCK and refusing anything but a regular file means it cannot hang; what remains is a
 * bounded read of a regular file.
 */
export function readBoundedFileSync(path: string, maxBytes: number): BoundedRead {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    return openFailure(error);
  }
  try {
    const stats = fstatSync(fd);
    const refusal = refusalReason(stats, maxBytes);
    if (refusal) return { status: "refused", reason: refusal };
    const collected = new BoundedBuffer(stats.size, maxBytes);
    for (;;) {
      const space = collected.space();
      const bytesRead = readSync(fd, space, 0, space.length, collected.length);
      if (bytesRead === 0) break;
      if (!collected.commit(bytesRead)) return { status: "refused", reason: tooLargeReason(maxBytes) };
    }
    return { status: "ok", bytes: collected.bytes(), mode: stats.mode };
  } catch (error) {
    return openFailure(error);
  } finally {
    closeSync(fd);
  }
}

/** UTF-8 text of a file read whole, without a leading byte-order mark. */
export function decodeText(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
