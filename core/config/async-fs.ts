import { chmod, close, fstat, lstat, mkdir, open, read, readdir, realpath, stat } from "node:fs";
import { promisify } from "node:util";

/**
 * The asynchronous file calls of Zi's start-up, up to a first reply: settings, credentials and
 * models files, extension discovery, context files, skills, delegation profiles. Through node:fs's
 * callbacks, not node:fs/promises: node:fs is in Node's startup snapshot, node:fs/promises is not on
 * Node 26 and costs 1.5-2.8 ms of CPU to load there (its FileHandle, readline's interface;
 * docs/performance.md). The same calls as node:fs/promises' (`realpath` is the native one, as theirs is).
 */
export class AsyncFs {
  static readonly open = promisify(open);
  static readonly fstat = promisify(fstat);
  static readonly read = promisify(read);
  static readonly close = promisify(close);
  static readonly readdir = promisify(readdir);
  static readonly stat = promisify(stat);
  static readonly lstat = promisify(lstat);
  static readonly realpath = promisify(realpath.native);
  static readonly mkdir = promisify(mkdir);
  static readonly chmod = promisify(chmod);
}
