import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { chmod, mkdir, open, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { describeFileError } from "./text-file-reader.js";

export interface WriteOutcome {
  bytes: number;
  created: boolean;
}

/**
 * Writes a file so that readers see either the old or the new content, never a torn one: the data
 * goes to a temporary sibling (same directory, hence same file system) that is synced and renamed
 * over the target. An existing file keeps its permission bits; a symlink keeps pointing at the
 * file it names, which receives the new content.
 */
export async function writeFileAtomically(absolute: string, shown: string, data: string | Buffer): Promise<WriteOutcome> {
  const target = await realpath(absolute).catch(() => absolute);
  const existing = await stat(target).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(describeFileError(error, shown));
  });
  if (existing?.isDirectory()) throw new Error(`${shown} is a directory; write needs a file path.`);
  if (existing && !existing.isFile()) throw new Error(`${shown} is not a regular file.`);
  const directory = dirname(target);
  await mkdir(directory, { recursive: true }).catch((error: unknown) => {
    throw new Error(describeFileError(error, displayParent(shown)));
  });
  const temporary = join(directory, `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  try {
    await writeSynced(temporary, bytes, existing);
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw new Error(describeFileError(error, shown));
  }
  return { bytes: bytes.length, created: existing === undefined };
}

async function writeSynced(temporary: string, bytes: Buffer, existing: Stats | undefined): Promise<void> {
  const handle = await open(temporary, "wx", 0o666);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (existing) await chmod(temporary, existing.mode & 0o7777);
}

function displayParent(shown: string): string {
  const parent = dirname(shown);
  return parent === "." ? shown : parent;
}
