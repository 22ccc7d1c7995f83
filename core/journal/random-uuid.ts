import { closeSync, openSync, readSync } from "node:fs";
import { randomUUID as cryptoRandomUUID } from "node:crypto";

const UUIDS_PER_READ = 64;
const pool = Buffer.alloc(16 * UUIDS_PER_READ);
let next = pool.length;
let fallback = false;

/**
 * A random version-4 UUID, as crypto.randomUUID makes one, from the kernel's random source read
 * directly (64 at a time). For the ids a fresh session makes before its first response (its session
 * id, its journal's entry ids): node:crypto's first use loads ~20 of Node's modules and seeds its
 * pool, ~3-6 ms of CPU on Node 26 before that response (docs/performance.md). Where /dev/urandom
 * cannot be read, crypto's.
 */
export function randomUuid(): string {
  if (fallback || (next === pool.length && !refill())) return cryptoRandomUUID();
  const bytes = pool.subarray(next, next + 16);
  next += 16;
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  bytes.fill(0);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function refill(): boolean {
  let fd: number | undefined;
  try {
    fd = openSync("/dev/urandom", "r");
    for (let filled = 0; filled < pool.length; ) {
      const read = readSync(fd, pool, filled, pool.length - filled, null);
      if (read === 0) throw new Error("/dev/urandom ended");
      filled += read;
    }
    next = 0;
    return true;
  } catch {
    fallback = true;
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
