import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

export interface RipgrepRunOptions {
  /** rg's working directory, which its `--glob`s are relative to (this process's by default). */
  cwd?: string;
  /**
   * rg's output is read from when this settles, not before: until then what it prints waits in the
   * pipe, and rg waits once the pipe is full, so a run whose turn has not come costs neither side
   * more than that.
   */
  readFrom?: Promise<void>;
}

export interface RipgrepExit {
  code: number | null;
  /** The start of what rg wrote to stderr (errors only; warnings are silenced with --no-messages). */
  stderr: string;
}

const STDERR_KEEP = 4096;
/**
 * The longest record read from rg: its callers bound what it prints (a path, a line cut by
 * `--max-columns`), so a longer one is a failure, never a buffer that grows with a file's size.
 */
const MAX_RECORD_BYTES = 64 * 1024;
let located: { path: string | undefined; forPath: string | undefined } | undefined;

/** Where a record that starts at `start` ends (the index of its terminator, left out), or -1 while it is incomplete. */
export type RecordEnd = (data: Buffer, start: number) => number;

/** Records that are lines: they end at LF. */
export const lineEnd: RecordEnd = (data, start) => data.indexOf(10, start);

/**
 * One `rg` process: arguments, never a shell. stdout is read as a stream of records, cut on bytes (so
 * never inside a character) where `recordEnd` says (lines by default), and handed over one by one; a
 * handler that returns false ends the run early. A record is at most MAX_RECORD_BYTES; stderr is kept
 * up to STDERR_KEEP. rg leads its own process group, which is killed on interrupt.
 */
export class RipgrepProcess {
  /** The `rg` executable on PATH, or undefined; looked up once per PATH value. */
  static locate(): string | undefined {
    const pathVariable = process.env.PATH;
    if (located && located.forPath === pathVariable) return located.path;
    let found: string | undefined;
    for (const dir of (pathVariable ?? "").split(delimiter)) {
      if (dir === "") continue;
      const candidate = join(dir, "rg");
      try {
        accessSync(candidate, constants.X_OK);
        if (statSync(candidate).isFile()) {
          found = candidate;
          break;
        }
      } catch {
        // not here
      }
    }
    located = { path: found, forPath: pathVariable };
    return found;
  }

  static run(executable: string, args: string[], signal: AbortSignal, onLine: (line: Buffer) => boolean, recordEnd: RecordEnd = lineEnd, options: RipgrepRunOptions = {}): Promise<RipgrepExit> {
    return new Promise<RipgrepExit>((resolve, reject) => {
      if (signal.aborted) return reject(new Error("The search was interrupted."));
      const child = spawn(executable, args, { stdio: ["ignore", "pipe", "pipe"], detached: true, cwd: options.cwd });
      let stderr = "";
      let pending: Buffer | undefined;
      let stopped = false;
      let failure: Error | undefined;
      const kill = (): void => {
        if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      };
      const onAbort = (): void => {
        stopped = true;
        kill();
        // An unread stdout would never end, and the run never close.
        child.stdout!.resume();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const read = (chunk: Buffer): void => {
        if (stopped) return;
        let data = pending ? Buffer.concat([pending, chunk]) : chunk;
        pending = undefined;
        let start = 0;
        for (let newline = recordEnd(data, 0); newline >= 0; newline = recordEnd(data, start)) {
          let keepGoing: boolean;
          try {
            keepGoing = onLine(data.subarray(start, newline));
          } catch (error) {
            // A record that cannot be read ends the run with that error, never the process.
            failure = error instanceof Error ? error : new Error(String(error));
            keepGoing = false;
          }
          start = newline + 1;
          if (!keepGoing) {
            stopped = true;
            kill();
            // The caller has its answer: it does not wait for the killed group to exit and close its
            // pipes (a scheduling round per process on a busy machine); "close" cleans up after.
            if (!failure) {
              signal.removeEventListener("abort", onAbort);
              resolve({ code: 0, stderr: stderr.slice(0, STDERR_KEEP) });
            }
            return;
          }
        }
        if (data.length - start > MAX_RECORD_BYTES) {
          failure = new Error(`ripgrep printed a record longer than ${MAX_RECORD_BYTES} bytes.`);
          stopped = true;
          kill();
          return;
        }
        if (start < data.length) pending = Buffer.from(data.subarray(start));
        data = Buffer.alloc(0);
      };
      // Before its turn the output is held: paused, and what Node still hands over kept as it came
      // (Node resumes a child's unread stdout when the child exits, so an early end flows anyway; it
      // is then at most what the pipe held). The end waits for the turn too.
      let early: Buffer[] | undefined = options.readFrom ? [] : undefined;
      let endedEarly: (() => void) | undefined;
      child.stdout!.on("data", (chunk: Buffer) => (early ? early.push(chunk) : read(chunk)));
      if (options.readFrom) {
        child.stdout!.pause();
        void options.readFrom.then(() => {
          const held = early!;
          early = undefined;
          // An interrupt may have come after the child ended, when nothing listened for it any more.
          if (!signal.aborted) for (const chunk of held) read(chunk);
          child.stdout!.resume();
          endedEarly?.();
        });
      }
      child.stderr!.on("data", (chunk: Buffer) => {
        if (stderr.length < STDERR_KEEP) stderr += chunk.subarray(0, STDERR_KEEP).toString("utf8");
      });
      child.once("error", (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(new Error(`ripgrep could not be started: ${error.message}`));
      });
      child.once("close", (code) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) return reject(new Error("The search was interrupted."));
        const end = (): void => {
          if (failure) return reject(failure);
          try {
            if (!stopped && pending && pending.length > 0) onLine(pending);
          } catch (error) {
            return reject(error instanceof Error ? error : new Error(String(error)));
          }
          resolve({ code: stopped ? 0 : code, stderr: stderr.slice(0, STDERR_KEEP) });
        };
        if (early) endedEarly = () => (signal.aborted ? reject(new Error("The search was interrupted.")) : end());
        else end();
      });
    });
  }
}
